import IntentKit
import WorkflowKit

/// The triggers of an `automation:` block as JSON, for `view --json` and `list --json` (in
/// words: ``AutomationBlock/triggerPhrases``).
///
/// ```swift
/// TriggerText.object(of: block)   // {"schedule": "@daily", "timeZone": null, "webhook": {...}, "watch": null}
/// ```
enum TriggerText {
    /// `{"name", "secret", "rate"}`.
    static func object(_ webhook: AutomationBlock.Webhook) -> IntentValue {
        .dictionary(["name": .string(webhook.name.value), "secret": .string(webhook.secret), "rate": .string(webhook.rate.description)])
    }

    /// `{"path", "events", "pattern", "debounce"}`, the path as written.
    static func object(_ watch: AutomationBlock.Watch) -> IntentValue {
        .dictionary([
            "path": .string(watch.path.value), "events": .list(watch.events.map { .string($0.rawValue) }),
            "pattern": watch.pattern.map { .string($0.value) } ?? .null, "debounce": .string(DurationSyntax.describe(watch.debounce))
        ])
    }

    /// `{"schedule", "timeZone", "webhook", "watch"}`, each `null` when not written.
    static func object(of block: AutomationBlock) -> IntentValue {
        .dictionary([
            "schedule": block.schedule.map { .string($0.value) } ?? .null, "timeZone": block.timeZone.map { .string($0.value) } ?? .null,
            "webhook": block.webhook.map(object) ?? .null, "watch": block.watch.map(object) ?? .null
        ])
    }
}

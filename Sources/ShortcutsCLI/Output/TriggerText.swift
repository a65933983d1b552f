import IntentKit
import WorkflowKit

/// The triggers of an `automation:` block in words and as JSON, for `view`, `list` and
/// `automations list`.
///
/// ```swift
/// TriggerText.watch(watch)          // "watch ~/Downloads (*.pdf; created, modified)"
/// TriggerText.webhook(webhook)      // "webhook /hooks/deploy"
/// ```
enum TriggerText {
    static func webhook(_ webhook: AutomationBlock.Webhook) -> String {
        "webhook /hooks/\(webhook.name.value)"
    }

    static func watch(_ watch: AutomationBlock.Watch) -> String {
        "watch \(watch.path.value) (" + (watch.pattern.map { "\($0.value); " } ?? "") + watch.events.map(\.rawValue).joined(separator: ", ") + ")"
    }

    /// The block's triggers, one phrase each: the schedule (with its zone), the webhook, the watch.
    static func phrases(of block: AutomationBlock) -> [String] {
        phrases(schedule: block.schedule?.value, timeZone: block.timeZone?.value, webhook: block.webhook, watch: block.watch)
    }

    /// Triggers in words: `0 9 * * * (Europe/Paris)`, `webhook /hooks/deploy`, `watch inbox (created)`.
    static func phrases(
        schedule: String?, timeZone: String?, webhook: AutomationBlock.Webhook?, watch: AutomationBlock.Watch?
    ) -> [String] {
        var phrases: [String] = []
        if let schedule { phrases.append(schedule + (timeZone.map { " (\($0))" } ?? "")) }
        if let webhook { phrases.append(Self.webhook(webhook)) }
        if let watch { phrases.append(Self.watch(watch)) }
        return phrases
    }

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

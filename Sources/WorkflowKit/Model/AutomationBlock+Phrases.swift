extension AutomationBlock {
    /// The block's triggers in words, one phrase each: the schedule (with its zone when written),
    /// the webhook, the watch.
    ///
    /// ```swift
    /// workflow.automation?.triggerPhrases   // ["0 9 * * * (Europe/Paris)", "webhook /hooks/deploy"]
    /// ```
    public var triggerPhrases: [String] {
        Self.triggerPhrases(schedule: schedule?.value, timeZone: timeZone?.value, webhook: webhook, watch: watch)
    }

    /// Triggers in words: `0 9 * * * (Europe/Paris)`, `webhook /hooks/deploy`,
    /// `watch inbox (*.pdf; created)`, each only when given.
    ///
    /// ```swift
    /// AutomationBlock.triggerPhrases(schedule: "@daily", timeZone: nil, webhook: nil, watch: nil)   // ["@daily"]
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: The cron schedule as written.
    ///   - timeZone: The zone to show beside it.
    ///   - webhook: The webhook.
    ///   - watch: The watched folder.
    /// - Returns: The phrases, in that order.
    public static func triggerPhrases(schedule: String?, timeZone: String?, webhook: Webhook?, watch: Watch?) -> [String] {
        var phrases: [String] = []
        if let schedule { phrases.append(schedule + (timeZone.map { " (\($0))" } ?? "")) }
        if let webhook { phrases.append(webhook.phrase) }
        if let watch { phrases.append(watch.phrase) }
        return phrases
    }
}

extension AutomationBlock.Webhook {
    /// The webhook in words: `webhook /hooks/deploy`.
    public var phrase: String { "webhook \(path)" }

    /// The path it is served at: `/hooks/NAME`.
    public var path: String { "/hooks/\(name.value)" }
}

extension AutomationBlock.Watch {
    /// The watch in words, its path as written: `watch ~/Downloads (*.pdf; created, modified)`.
    public var phrase: String {
        "watch \(path.value) (" + (pattern.map { "\($0.value); " } ?? "") + events.map(\.rawValue).joined(separator: ", ") + ")"
    }
}

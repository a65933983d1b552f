import Yams

/// Converting the `automation:` block.
extension WorkflowConverter {
    static let automationKeys = ["schedule", "webhook", "watch", "timeZone", "overlap", "catchUp", "timeout", "retry", "enabled"]
    static let retryKeys = ["attempts", "backoff"]
    static let triggerKeys = ["schedule", "webhook", "watch"]

    func convertAutomation(_ node: Node) -> AutomationBlock? {
        guard let entries = mappingEntries(node, for: "'automation'") else { return nil }
        let errorsBefore = diagnostics.count
        for entry in entries.all where !Self.automationKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'automation'", candidates: Self.automationKeys)
        }
        let schedule = entries["schedule"].flatMap { text($0.value, for: "'schedule'") }
        let webhook = entries["webhook"].flatMap { convertWebhook($0.value, at: $0.key.location) }
        let watch = entries["watch"].flatMap { convertWatch($0.value, at: $0.key.location) }
        if !Self.triggerKeys.contains(where: { entries[$0] != nil || isMisspelled($0, in: entries) }) {
            report(
                "'automation' needs a trigger: 'schedule', 'webhook' or 'watch'", at: entries.location,
                help: """
                    add one or more of:
                      schedule: "0 9 * * MON-FRI"      # runs on a cron schedule
                      webhook: deploy                  # runs on a request to /hooks/deploy
                      watch: { path: ~/Downloads }     # runs when a file appears in a folder
                    """)
        }
        if entries["schedule"] == nil && !isMisspelled("schedule", in: entries) {
            for key in ["timeZone", "overlap", "catchUp"] {
                guard let entry = entries[key] else { continue }
                report(
                    "'\(key)' applies to 'schedule', which is not written", at: entry.key.location,
                    help: "remove it: webhook and file runs start when their request or file event comes")
            }
        }
        let timeZone = entries.nonNull("timeZone").flatMap { text($0, for: "'timeZone'") }
        let overlap = entries.nonNull("overlap").flatMap { choice($0, for: "'overlap'", as: AutomationBlock.Overlap.self) }
        let catchUp = entries.nonNull("catchUp").flatMap { choice($0, for: "'catchUp'", as: AutomationBlock.CatchUp.self) }
        let timeout = entries.nonNull("timeout").flatMap { duration($0, for: "'timeout'") }
        let retry = entries.nonNull("retry").flatMap(convertRetry)
        let enabled = entries.nonNull("enabled").flatMap { boolean($0, for: "'enabled'") }
        guard diagnostics.count == errorsBefore, schedule != nil || webhook != nil || watch != nil else {
            // The block is not kept, so the validator will not see it: report its schedule and
            // time-zone mistakes now, with the others.
            for problem in WorkflowValidator.blockDiagnostics(schedule: schedule, timeZone: timeZone, source: source) {
                report(problem.message, at: problem.location, help: problem.help)
            }
            return nil
        }
        return AutomationBlock(
            schedule: schedule,
            webhook: webhook,
            watch: watch,
            timeZone: timeZone,
            overlap: overlap ?? .skip,
            catchUp: catchUp ?? .skipMissed,
            timeout: timeout,
            retry: retry,
            isEnabled: enabled?.value ?? true,
            location: entries.location
        )
    }

    private func convertRetry(_ node: Node) -> AutomationBlock.Retry? {
        guard let entries = mappingEntries(node, for: "'retry'") else { return nil }
        for entry in entries.all where !Self.retryKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'retry'", candidates: Self.retryKeys)
        }
        let backoff = entries.nonNull("backoff").flatMap { duration($0, for: "'backoff'") }
        guard let attemptsEntry = entries["attempts"] else {
            guard !isMisspelled("attempts", in: entries) else { return nil }
            report("'retry' is missing required key 'attempts'", at: entries.location)
            return nil
        }
        guard let attempts = count(attemptsEntry.value, for: "'attempts'", minimum: 1) else { return nil }
        return AutomationBlock.Retry(attempts: attempts.value, backoff: backoff?.value, location: entries.location)
    }
}

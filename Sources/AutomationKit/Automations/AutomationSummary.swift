import Cron
import Foundation
import WorkflowKit

/// One automation as `shortcuts automations list` and the dashboard show it: its triggers, when
/// it is next due, and its latest claimed due time with how that went.
///
/// Its JSON form (`automations list --json`) has these property names, with dates in ISO 8601.
///
/// ```swift
/// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// for summary in try folder.summaries(store: try AutomationStore.shared()) {
///     print(summary.name, summary.next ?? "never", summary.lastStatus ?? "never ran")
/// }
/// ```
public struct AutomationSummary: Sendable, Encodable {
    /// `name:`, or the file's name without its extension.
    public var name: String
    /// The file, as the folder's path was given (`Workflows/report.yaml`).
    public var file: String
    /// What starts its runs: `schedule`, `webhook`, `file` (``Automation/Trigger``).
    public var triggers: [String]
    /// The triggers in words (``AutomationBlock/triggerPhrases``): `0 9 * * * (Europe/Paris)`,
    /// `webhook /hooks/deploy`, `watch inbox (created)`.
    public var triggerPhrases: [String]
    /// The schedule as written; `nil` for an automation run only by its webhook or watch.
    public var schedule: String?
    /// The webhook, if it has one.
    public var webhook: Webhook?
    /// The watched folder, if it has one.
    public var watch: Watch?
    /// The time zone's name (`UTC` for the zero-offset zone).
    public var timeZone: String
    /// Whether the schedule says the zone (`timeZone:`), rather than using the system's.
    public var hasExplicitTimeZone: Bool
    /// `enabled:`.
    public var enabled: Bool
    /// `overlap:`.
    public var overlap: String
    /// `catchUp:`.
    public var catchUp: String
    /// The next due time after the summary was made; `nil` when disabled, `@reboot` or never.
    public var next: Date?
    /// `@reboot`: runs once each time the daemon starts, and has no next time.
    public var runsAtStart: Bool
    /// The latest claimed due time.
    public var lastDue: Date?
    /// How the latest claimed due time went (``Claim/Status``).
    public var lastStatus: String?
    /// The run of the latest claimed due time, in the run history.
    public var lastRunID: String?
    /// The latest run on a file event or a webhook (which are not claimed), when the run
    /// history was given and holds one.
    public var lastTriggeredRun: TriggeredRun?

    /// A run started by a file event or a webhook.
    public struct TriggeredRun: Sendable, Encodable, Equatable {
        /// Its id in the run history.
        public var id: String
        /// `file` or `webhook`.
        public var trigger: String
        /// When it started.
        public var startedAt: Date
        /// ``WorkflowKit/RunHistory/Status``, such as `succeeded`.
        public var status: String
    }

    /// The latest of the last claimed due time and the last triggered run: when it was due
    /// or started, how it went, and its run; `nil` when the automation never ran.
    public var lastActivity: (at: Date, status: String, runID: String?)? {
        let claimed = lastDue.map { (at: $0, status: lastStatus ?? "", runID: lastRunID) }
        guard let run = lastTriggeredRun else { return claimed }
        if let claimed, claimed.at >= run.startedAt { return claimed }
        return (run.startedAt, run.status, run.id)
    }

    /// An automation's `webhook:`.
    public struct Webhook: Sendable, Encodable {
        /// Its name.
        public var name: String
        /// Where it is served: `/hooks/NAME`.
        public var path: String
        /// The name of the secret requests authenticate with.
        public var secret: String
        /// Its rate, such as `10/s`.
        public var rate: String
    }

    /// An automation's `watch:`.
    public struct Watch: Sendable, Encodable {
        /// The folder as an absolute path.
        public var folder: String
        /// The events that count.
        public var events: [String]
        /// The file names that count, as written; `nil` for every file.
        public var pattern: String?
        /// The quiet time that ends a burst, such as `1s`.
        public var debounce: String
    }

    enum CodingKeys: String, CodingKey {
        case name, file, triggers, schedule, timeZone, webhook, watch, enabled, overlap, catchUp, next, runsAtStart, lastDue, lastStatus,
            lastRunID, lastTriggeredRun
    }

    /// Whether the latest claimed due time ended badly: failed, timed out or interrupted.
    public var isFailing: Bool {
        guard let lastStatus, let status = Claim.Status(rawValue: lastStatus) else { return false }
        return [.failed, .timedOut, .interrupted].contains(status)
    }

    /// Summarizes an automation with its latest claim.
    ///
    /// - Parameters:
    ///   - automation: The automation.
    ///   - latest: Its latest claim, if any.
    ///   - now: The time the next due time follows.
    public init(_ automation: Automation, latest: Claim?, now: Date) {
        name = automation.name
        file = automation.file.relativePath
        triggers = automation.triggers.map(\.rawValue)
        triggerPhrases = AutomationBlock.triggerPhrases(
            schedule: automation.scheduleText, timeZone: automation.hasExplicitTimeZone ? automation.timeZone.shownName : nil,
            webhook: automation.webhook, watch: automation.watch)
        schedule = automation.scheduleText
        webhook = automation.webhook.map { Webhook(name: $0.name.value, path: $0.path, secret: $0.secret, rate: $0.rate.description) }
        watch = automation.watch.map { watch in
            Watch(
                folder: automation.watchedFolder?.path ?? watch.path.value, events: watch.events.map(\.rawValue), pattern: watch.pattern?.value,
                debounce: DurationSyntax.describe(watch.debounce))
        }
        timeZone = automation.timeZone.shownName
        hasExplicitTimeZone = automation.hasExplicitTimeZone
        enabled = automation.isEnabled
        overlap = automation.overlap.rawValue
        catchUp = automation.catchUp.rawValue
        next = automation.isEnabled ? automation.nextDueTime(after: now) : nil
        runsAtStart = automation.schedule?.runsAtStart == true
        lastDue = latest?.dueDate
        lastStatus = latest?.status.rawValue
        lastRunID = latest?.runID
    }
}

extension AutomationFolder {
    /// The folder's automations, each with its latest claim in a store, in file-name order.
    ///
    /// ```swift
    /// let failing = try folder.summaries(store: store).filter(\.isFailing)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The daemons' state.
    ///   - history: The run history, for the latest run of each automation with a `watch:` or
    ///     a `webhook:` (``AutomationSummary/lastTriggeredRun``); none by default.
    ///   - now: The time next due times follow; the store's clock's by default.
    /// - Returns: One summary per automation.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func summaries(store: AutomationStore, history: RunHistory? = nil, now: Date? = nil) throws -> [AutomationSummary] {
        let now = now ?? store.clock.now()
        let automations = self.automations
        let latest = try store.latestClaims(for: automations.map(store.key(for:)))
        return try automations.map { automation in
            var summary = AutomationSummary(automation, latest: latest[store.key(for: automation)], now: now)
            let triggers = [Automation.Trigger.file, .webhook].filter(automation.triggers.contains).map(\.recordedName)
            if let history, !triggers.isEmpty {
                let run = try triggers.compactMap { trigger in
                    try history.runs(RunHistory.Filter(workflow: automation.fileName, trigger: trigger, limit: 1)).first
                }.max { $0.startedAt < $1.startedAt }
                summary.lastTriggeredRun = run.map {
                    AutomationSummary.TriggeredRun(id: $0.id, trigger: $0.trigger, startedAt: $0.startedAt, status: $0.status.rawValue)
                }
            }
            return summary
        }
    }
}

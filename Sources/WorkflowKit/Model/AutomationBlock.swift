/// The optional `automation:` block: when and how a workflow runs on its own.
///
/// A block has at least one trigger: a cron `schedule:`, a `webhook:` (a request to
/// `/hooks/NAME` of the web server) or a `watch:` of a folder (files created, modified or
/// deleted there). The other keys say how the runs go, whatever started them.
///
/// ```yaml
/// automation:
///   schedule: "0 9 * * MON-FRI"
///   timeZone: Europe/Paris
///   webhook: { name: deploy, secret: DEPLOY_HOOK, rate: 10/s }
///   watch: { path: ~/Downloads, events: [created], pattern: "*.pdf", debounce: 1s }
///   overlap: skip
///   catchUp: latest
///   timeout: 10m
///   retry: { attempts: 3, backoff: 30s }
///   enabled: true
/// ```
///
/// The cron expression and the time zone are kept as text; another module checks them.
///
/// ```swift
/// if let automation = workflow.automation, automation.isEnabled, let schedule = automation.schedule {
///     scheduler.add(schedule.value, timeZone: automation.timeZone?.value)
/// }
/// ```
public struct AutomationBlock: Sendable, Hashable {
    /// What happens when a run is due while the previous one is still going.
    public enum Overlap: String, Sendable, Hashable, CaseIterable {
        /// Skip the new run (the default).
        case skip
        /// Start the new run when the previous one ends.
        case queue
        /// Run both at once.
        case parallel
        /// Cancel the previous run and start the new one.
        case replace
    }

    /// What happens to runs missed while the machine was off.
    public enum CatchUp: String, Sendable, Hashable, CaseIterable {
        /// Forget missed runs (the default); written `none`.
        case skipMissed = "none"
        /// Run once for the most recent missed time; written `latest`.
        case latest
        /// Run once for every missed time; written `all`.
        case all
    }

    /// How failed runs are tried again.
    ///
    /// ```swift
    /// for attempt in 1...retry.attempts { ... }
    /// ```
    public struct Retry: Sendable, Hashable {
        /// How many attempts in all, at least 1.
        public var attempts: Int
        /// How long to wait between attempts, or `nil` to retry at once.
        public var backoff: Duration?
        /// Where the `retry:` block is written.
        public var location: SourceLocation
    }

    /// The cron schedule as written, such as `0 9 * * MON-FRI`, or `nil` when the workflow
    /// runs only on its other triggers.
    public var schedule: Located<String>?
    /// `webhook:`: the workflow runs on a request to `/hooks/NAME`; `nil` when not written.
    public var webhook: Webhook?
    /// `watch:`: the workflow runs when files change in a folder; `nil` when not written.
    public var watch: Watch?
    /// The IANA time zone of the schedule, such as `Europe/Paris`, or `nil` for the system's.
    public var timeZone: Located<String>?
    /// What to do when runs overlap; ``Overlap/skip`` by default.
    public var overlap: Overlap
    /// What to do about missed runs; ``CatchUp/skipMissed`` by default.
    public var catchUp: CatchUp
    /// The longest a run may take, or `nil` for no limit.
    public var timeout: Located<Duration>?
    /// How failed runs are retried, or `nil` for no retries.
    public var retry: Retry?
    /// Whether the triggers are active; `true` by default.
    public var isEnabled: Bool
    /// Where the `automation:` block is written.
    public var location: SourceLocation
}

/// The metrics the automation daemon emits through swift-metrics, by name, and their labels.
///
/// The daemon takes the factory in force when it is created (the one bound by swift-metrics'
/// `withMetricsFactory`, or the global one `MetricsSystem.bootstrap` installs) and uses it from
/// its own threads and tasks; the run history it opens itself, and the runs it performs, count
/// with it too (``WorkflowMetric``). Without a backend every metric goes to swift-metrics' no-op
/// handler.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())
/// let daemon = AutomationDaemon(configuration)
/// // shortcuts_claims_total{outcome="started"} 12
/// // shortcuts_automations_scheduled 5
/// ```
public enum DaemonMetric: String, CaseIterable, Sendable {
    /// `shortcuts_claims_total`, a counter: what became of the due times this daemon asked to
    /// claim, by ``Label/outcome`` (``ClaimOutcome``), and of the claims of dead daemons it
    /// settled as `interrupted`.
    case claims = "shortcuts_claims_total"
    /// `shortcuts_lateness_seconds`, a timer: how long after its due time each claimed due time's
    /// run started, by the database's clock. Queued due times count the wait for the run before
    /// them; catch-up runs of due times missed while no daemon ran are left out.
    case lateness = "shortcuts_lateness_seconds"
    /// `shortcuts_automations_scheduled`, a gauge: the enabled automations the daemon schedules.
    case scheduledAutomations = "shortcuts_automations_scheduled"
    /// `shortcuts_runs_running`, a gauge: the runs the daemon is performing now, due times (a
    /// run waiting between attempts included) and requested runs.
    case runningRuns = "shortcuts_runs_running"

    /// The labels (swift-metrics' dimensions) of the daemon's metrics.
    public enum Label: String, CaseIterable, Sendable {
        /// What became of a claim (``ClaimOutcome``).
        case outcome
    }

    /// What became of a due time the daemon asked to claim: the values of ``Label/outcome``.
    public enum ClaimOutcome: String, CaseIterable, Sendable {
        /// Claimed, and its run starts now.
        case started
        /// Claimed, and waits for the automation's run before it (`overlap: queue`, `catchUp: all`).
        case queued
        /// Claimed and not run: the automation's previous run was still going (`overlap: skip`,
        /// or a full queue).
        case skipped
        /// Recorded as missed: due times that passed while no daemon ran (`catchUp: none`, or
        /// beyond the catch-up limit), one claim for several.
        case missed
        /// Another daemon claimed it first: this one forgot it.
        case lost
        /// A claim of a daemon that died (or whose lease expired) before its run ended or
        /// started, settled by this daemon.
        case interrupted
    }
}

/// The metrics the workflow engine emits through swift-metrics, by name, and their labels.
///
/// Nothing is bootstrapped here: a program that wants them calls `MetricsSystem.bootstrap`
/// with a backend (such as swift-prometheus's `PrometheusMetricsFactory`) before it opens the
/// ``RunHistory`` or creates the ``WorkflowRunner``, which take the factory in force when they
/// are created (the one bound by swift-metrics' `withMetricsFactory`, or the global one). Without
/// a backend every metric goes to swift-metrics' no-op handler, and the engine skips the work.
///
/// ```swift
/// let factory = PrometheusMetricsFactory()
/// MetricsSystem.bootstrap(factory)
/// let history = try RunHistory.shared()   // counts the runs it records as ended
/// // shortcuts_runs_total{status="succeeded",trigger="manual"} 1
/// ```
///
/// Labels stay few and bounded: a status is one of four words, a trigger one of the words the
/// program starts runs with (`manual`, `automation`, `mcp`, `webhook`…), a kind one of the step
/// keywords.
public enum WorkflowMetric: String, CaseIterable, Sendable {
    /// `shortcuts_runs_total`, a counter: runs ended, by ``Label/status`` (`succeeded`,
    /// `failed`, `cancelled`, `interrupted`) and ``Label/trigger``.
    ///
    /// Counted once per run, when the run history records its end: by the runner's record
    /// (`succeeded`, `failed` — an automation's `timeout:` included — or `cancelled`), or when
    /// the history settles a run whose runner is gone (`interrupted`, or `cancelled` before it
    /// started). A record of a run that was settled meanwhile changes nothing and counts nothing,
    /// so a run counts once even with several daemons on one database. A runner without a history
    /// counts its runs itself.
    case runs = "shortcuts_runs_total"
    /// `shortcuts_run_duration_seconds`, a timer: how long each run a ``WorkflowRunner``
    /// performed took, from its start to its end whatever the outcome, by ``Label/trigger``.
    case runDuration = "shortcuts_run_duration_seconds"
    /// `shortcuts_step_duration_seconds`, a timer: how long each step took, by ``Label/kind``
    /// (`perform`, `find`, `repeat`…); a step with steps inside (`if`, `repeat`, `parallel`…)
    /// counts the time of those steps too.
    case stepDuration = "shortcuts_step_duration_seconds"

    /// The labels (swift-metrics' dimensions) of the engine's metrics.
    public enum Label: String, CaseIterable, Sendable {
        /// How a run ended: `succeeded`, `failed`, `cancelled` or `interrupted` (``RunHistory/Status``).
        case status
        /// What started a run, as the run history records it: `manual`, `automation`, `mcp`, `webhook`…
        case trigger
        /// A step's keyword: `perform`, `find`, `set`, `repeat`…
        case kind
    }
}

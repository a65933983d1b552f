/// The metrics of extension calls, emitted through swift-metrics, by name, and their labels.
///
/// An ``ExtensionHost`` takes the factory in force when it is created (the one bound by
/// swift-metrics' `withMetricsFactory`, or the global one `MetricsSystem.bootstrap` installs).
/// A call is one `intents/perform` or entity query, timed from the request to its answer,
/// starting the extension included when the call starts it.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())
/// let loaded = await ExtensionRegistry(home: ShortcutsHome.directory()).loadHosts()
/// // shortcuts_extension_calls_total{extension="Greeter",outcome="succeeded"} 3
/// ```
public enum ExtensionMetric: String, CaseIterable, Sendable {
    /// `shortcuts_extension_calls_total`, a counter: calls to extensions, by ``Label/extension``
    /// and ``Label/outcome`` (``CallOutcome``).
    case calls = "shortcuts_extension_calls_total"
    /// `shortcuts_extension_call_duration_seconds`, a timer: how long each call took, whatever
    /// its outcome, by ``Label/extension``.
    case callDuration = "shortcuts_extension_call_duration_seconds"

    /// The labels (swift-metrics' dimensions) of the extension metrics.
    public enum Label: String, CaseIterable, Sendable {
        /// The extension's name (``ExtensionHost/name``).
        case `extension`
        /// How the call ended (``CallOutcome``).
        case outcome
    }

    /// How a call ended: the values of ``Label/outcome``.
    public enum CallOutcome: String, CaseIterable, Sendable {
        /// The extension answered with a result.
        case succeeded
        /// The extension answered that the intent or query failed, or the intent asked a
        /// question nobody could answer.
        case failed
        /// The caller stopped waiting (a step's timeout, a cancelled run).
        case cancelled
        /// The extension could not answer: it could not start, exited or was stopped, broke
        /// the protocol, or did not answer in time.
        case unavailable
    }
}

#if Web
    import AutomationKit
    import IntentExtensions
    import Metrics
    import Prometheus
    import WorkflowKit

    /// The metrics `/metrics` serves: whatever is recorded through swift-metrics in this process
    /// (the server's own request counts and durations, and any other component's), kept in a
    /// swift-prometheus registry installed as swift-metrics' backend.
    ///
    /// The backend is installed once per process, by ``bootstrap()`` or when a server starts. Call
    /// ``bootstrap()`` before creating the components whose metrics should be served, since
    /// swift-metrics binds each metric to the backend installed when the metric is made.
    ///
    /// ```swift
    /// DashboardMetrics.bootstrap()
    /// let daemon = AutomationDaemon(configuration, logger: logger)   // its metrics are served too
    /// ```
    public enum DashboardMetrics {
        /// Installs the Prometheus registry as swift-metrics' backend, once per process (later calls
        /// do nothing).
        public static func bootstrap() {
            _ = registry
        }

        /// The registry, installed on first use.
        static let registry: PrometheusCollectorRegistry = {
            let registry = PrometheusCollectorRegistry()
            var factory = PrometheusMetricsFactory(registry: registry)
            for (metric, buckets) in durationBuckets { factory.durationHistogramBuckets[metric] = buckets }
            MetricsSystem.bootstrap(factory)
            return registry
        }()

        /// Histogram buckets for the durations that outgrow Prometheus's default ones (which end at
        /// 10 s): runs last minutes, extension calls seconds, and a late start is measured in
        /// milliseconds.
        static let durationBuckets: [String: [Duration]] = {
            let runs: [Duration] = [
                .milliseconds(10), .milliseconds(50), .milliseconds(250), .seconds(1), .seconds(5), .seconds(30), .seconds(120), .seconds(600),
                .seconds(3600)
            ]
            let lateness: [Duration] = [
                .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .seconds(5), .seconds(60)
            ]
            return [
                WorkflowMetric.runDuration.rawValue: runs,
                ExtensionMetric.callDuration.rawValue: runs,
                DaemonMetric.lateness.rawValue: lateness
            ]
        }()

        /// Every metric in the Prometheus text format.
        static func text() -> String {
            registry.emitToString()
        }
    }
#endif

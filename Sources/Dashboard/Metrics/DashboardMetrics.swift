#if Web
    import Metrics
    import Prometheus

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
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            return registry
        }()

        /// Every metric in the Prometheus text format.
        static func text() -> String {
            registry.emitToString()
        }
    }
#endif

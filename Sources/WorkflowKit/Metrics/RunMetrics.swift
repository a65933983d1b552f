import Foundation
import Metrics
import Synchronization

/// The engine's metric handles (``WorkflowMetric``), made with one factory: the one in force
/// when the component holding them was created, so that a test's `withMetricsFactory` reaches
/// the threads and detached tasks the component later runs on.
///
/// Handles are made on first use for each label value and kept. With swift-metrics' no-op
/// factory nothing is made and every call returns at once.
///
/// ```swift
/// let metrics = RunMetrics()   // the factory of MetricsSystem.factory, now
/// metrics.recordEnded(.succeeded, trigger: "manual")
/// ```
package final class RunMetrics: Sendable {
    /// The factory the handles are made with.
    package let factory: any MetricsFactory
    /// Whether the factory records anything (it is not swift-metrics' no-op handler).
    package let isEnabled: Bool
    private let ended = Mutex<[String: Counter]>([:])
    private let runDurations = Mutex<[String: CoreMetrics.Timer]>([:])
    private let stepDurations = Mutex<[String: CoreMetrics.Timer]>([:])

    /// Creates the handles' holder.
    ///
    /// - Parameter factory: The factory; the one `MetricsSystem.factory` names now by default.
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        isEnabled = !(factory is NOOPMetricsHandler)
    }

    /// Counts a run ended with a status (``WorkflowMetric/runs``).
    package func recordEnded(_ status: RunHistory.Status, trigger: String) {
        guard isEnabled else { return }
        let counter = ended.withLock { counters in
            let key = status.rawValue + "\u{0}" + trigger
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: WorkflowMetric.runs.rawValue,
                dimensions: [(WorkflowMetric.Label.status.rawValue, status.rawValue), (WorkflowMetric.Label.trigger.rawValue, trigger)],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// Records how long a run took (``WorkflowMetric/runDuration``).
    package func recordRunDuration(_ duration: Duration, trigger: String) {
        guard isEnabled else { return }
        timer(.runDuration, .trigger, trigger, in: runDurations).record(duration: duration)
    }

    /// Records how long a step took (``WorkflowMetric/stepDuration``).
    package func recordStepDuration(_ duration: Duration, kind: String) {
        guard isEnabled else { return }
        timer(.stepDuration, .kind, kind, in: stepDurations).record(duration: duration)
    }

    private func timer(
        _ metric: WorkflowMetric, _ label: WorkflowMetric.Label, _ value: String, in timers: borrowing Mutex<[String: CoreMetrics.Timer]>
    ) -> CoreMetrics.Timer {
        timers.withLock { timers in
            if let timer = timers[value] { return timer }
            let timer = CoreMetrics.Timer(label: metric.rawValue, dimensions: [(label.rawValue, value)], factory: factory)
            timers[value] = timer
            return timer
        }
    }
}

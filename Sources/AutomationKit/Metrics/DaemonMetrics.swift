import Foundation
import Metrics
import WorkflowKit

/// The daemon's metric handles (``DaemonMetric``), made once with the factory in force when the
/// daemon was created, plus the handles its runs count with (``WorkflowMetric``).
final class DaemonMetrics: Sendable {
    /// The factory of every handle.
    let factory: any MetricsFactory
    /// The handles of the runs the daemon performs.
    let runs: RunMetrics
    private let claims: [DaemonMetric.ClaimOutcome: Counter]
    private let lateness: CoreMetrics.Timer
    private let scheduled: Gauge
    private let running: Gauge

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        runs = RunMetrics(factory: factory)
        claims = Dictionary(
            uniqueKeysWithValues: DaemonMetric.ClaimOutcome.allCases.map { outcome in
                (
                    outcome,
                    Counter(
                        label: DaemonMetric.claims.rawValue, dimensions: [(DaemonMetric.Label.outcome.rawValue, outcome.rawValue)],
                        factory: factory)
                )
            })
        lateness = CoreMetrics.Timer(label: DaemonMetric.lateness.rawValue, factory: factory)
        scheduled = Gauge(label: DaemonMetric.scheduledAutomations.rawValue, factory: factory)
        running = Gauge(label: DaemonMetric.runningRuns.rawValue, factory: factory)
    }

    /// Counts claims with an outcome.
    func recordClaims(_ outcome: DaemonMetric.ClaimOutcome, count: Int = 1) {
        guard count > 0 else { return }
        claims[outcome]?.increment(by: count)
    }

    /// Records how late a run started after its due time.
    func recordLateness(_ seconds: TimeInterval) {
        lateness.record(max(0, seconds))
    }

    /// Records how many automations are scheduled.
    func recordScheduled(_ count: Int) {
        scheduled.record(count)
    }

    /// Records how many runs are going.
    func recordRunning(_ count: Int) {
        running.record(count)
    }
}

extension DaemonMetric.ClaimOutcome {
    /// The outcome of a claim the store inserted, by the status it gave it.
    init?(claimed status: Claim.Status) {
        switch status {
        case .running: self = .started
        case .queued: self = .queued
        case .skipped: self = .skipped
        case .missed: self = .missed
        default: return nil
        }
    }
}

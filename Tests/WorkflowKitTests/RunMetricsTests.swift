import Clockwork
import Foundation
import IntentKit
import Metrics
import MetricsTestKit
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// The engine's metrics after real runs, each test with its own `TestMetrics` factory bound by
/// `withMetricsFactory` while the runner and the history are created (they keep it), so tests
/// running at once do not share counters and nothing is bootstrapped for the process.
@Suite("Run metrics")
struct RunMetricsTests {
    let metrics = TestMetrics()

    static let succeeding = """
        steps:
          - set: n
            to: 1
          - show: "n is ${n}"
        """

    /// Fails at its second step, at run time: a count below 0.
    static let failing = """
        steps:
          - set: count
            to: -1
          - repeat: { count: "${count}" }
            steps: [ { comment: never runs } ]
        """

    func runs(_ status: RunHistory.Status, trigger: String = "manual") -> Int64 {
        metrics.counterTotal(label: WorkflowMetric.runs.rawValue, dimensions: [("status", status.rawValue), ("trigger", trigger)])
    }

    func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    @Test("A run that succeeds and one that fails count once each, with their durations and every step's")
    func succeededAndFailed() async throws {
        let (runner, history) = try withMetricsFactory(metrics) {
            let history = try RunHistory(path: ":memory:")
            return (WorkflowRunner(catalog: IntentCatalog(apps: []), history: history, secrets: nil), history)
        }
        let clock = ContinuousClock()
        var succeeded: WorkflowRunResult?
        let wall = try await clock.measure {
            succeeded = try await runner.run(try WorkflowLoader.load(text: Self.succeeding, fileName: "succeeds.yaml"))
            await #expect(throws: WorkflowRunError.self) {
                try await runner.run(try WorkflowLoader.load(text: Self.failing, fileName: "fails.yaml"))
            }
        }
        #expect(runs(.succeeded) == 1)
        #expect(runs(.failed) == 1)
        #expect(metrics.counters(label: WorkflowMetric.runs.rawValue).count == 2, "no other status or trigger was counted")
        #expect(try history.runs(RunHistory.Filter(limit: 10)).map(\.status).sorted { $0.rawValue < $1.rawValue } == [.failed, .succeeded])

        let durations = try metrics.expectTimer(WorkflowMetric.runDuration.rawValue, [("trigger", "manual")]).values
        #expect(durations.count == 2)
        #expect(durations.allSatisfy { $0 > 0 && $0 <= nanoseconds(wall) })

        // Each step's duration is the one its trace records.
        let steps = try #require(succeeded).steps
        #expect(try metrics.expectTimer(WorkflowMetric.stepDuration.rawValue, [("kind", "show")]).values == [nanoseconds(steps[1].duration)])
        let sets = try metrics.expectTimer(WorkflowMetric.stepDuration.rawValue, [("kind", "set")]).values
        #expect(sets.count == 2 && sets.first == nanoseconds(steps[0].duration))
        #expect(try metrics.expectTimer(WorkflowMetric.stepDuration.rawValue, [("kind", "repeat")]).values.count == 1)
        #expect(metrics.timers(label: WorkflowMetric.stepDuration.rawValue).count == 3, "set, show and repeat; the comment never ran")
    }

    @Test("A runner without a history counts its runs itself, with its trigger")
    func withoutHistory() async throws {
        var runner = withMetricsFactory(metrics) { WorkflowRunner(catalog: IntentCatalog(apps: []), secrets: nil) }
        runner.trigger = "webhook"
        _ = try await runner.run(try WorkflowLoader.load(text: Self.succeeding, fileName: "succeeds.yaml"))
        #expect(runs(.succeeded, trigger: "webhook") == 1)
        #expect(try metrics.expectTimer(WorkflowMetric.runDuration.rawValue, [("trigger", "webhook")]).values.count == 1)
    }

    @Test("A run past its timeout counts as failed, as the history records it, not as cancelled, and lasted its timeout")
    func timeout() async throws {
        let clock = ManualClock()
        var (runner, history) = try withMetricsFactory(metrics) {
            let history = try RunHistory(path: ":memory:")
            return (WorkflowRunner(catalog: IntentCatalog(apps: []), history: history, trigger: "automation", secrets: nil, clock: clock), history)
        }
        runner.timeout = .seconds(30)
        let timed = runner
        let run = Task { try await timed.run(try WorkflowLoader.load(text: "steps:\n  - wait: 60s\n", fileName: "waits.yaml")) }
        // The run's timer and its step's wait.
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(30))
        await #expect(throws: WorkflowTimedOut.self) { try await run.value }
        let record = try #require(try history.recentRuns(limit: 1).first)
        #expect(record.status == .failed && record.error == "timed out after 30 s (automation timeout)")
        #expect(runs(.failed, trigger: "automation") == 1)
        #expect(runs(.cancelled, trigger: "automation") == 0)
        #expect(try metrics.expectTimer(WorkflowMetric.runDuration.rawValue, [("trigger", "automation")]).values == [nanoseconds(.seconds(30))])
        #expect(try metrics.expectTimer(WorkflowMetric.stepDuration.rawValue, [("kind", "wait")]).values == [nanoseconds(.seconds(30))])
    }

    @Test("A run whose process died counts as interrupted when a history settles it, and a run settled before its runner records it counts once")
    func settledRuns() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let workflow = try WorkflowLoader.load(text: Self.succeeding, fileName: "succeeds.yaml")
        let first = try RunHistory(path: path)
        let orphan = try first.begin(workflow: workflow)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        try first.database.write { connection in
            try connection.execute("UPDATE run SET ownerPID = ? WHERE id = ?", [.integer(Int64(process.processIdentifier)), .text(orphan)])
        }

        let history = try withMetricsFactory(metrics) { try RunHistory(path: path) }
        #expect(try history.run(matching: orphan).run.status == .interrupted)
        #expect(runs(.interrupted) == 1)

        // A daemon that took over marks a run interrupted; the paused runner's record then changes nothing.
        try history.begin([(file: "succeeds.yaml", name: nil, id: "paused")], trigger: "automation")
        #expect(try history.mark(["paused"], as: .interrupted, error: "interrupted: the daemon stopped") == 1)
        try history.finish("paused", status: .succeeded, output: nil, error: nil, steps: [])
        #expect(runs(.interrupted, trigger: "automation") == 1)
        #expect(runs(.succeeded, trigger: "automation") == 0)
        // Marking a run that already ended changes its record but counts nothing more.
        #expect(try history.mark(["paused"], as: .cancelled, error: "replaced", onlyRunning: false) == 1)
        #expect(runs(.cancelled, trigger: "automation") == 0)
    }

    @Test("Without a backend the engine's metrics do nothing")
    func noBackend() {
        // swift-metrics' no-op backend, bound here because another suite of this process may
        // have installed a global one.
        #expect(!withMetricsFactory(NOOPMetricsHandler.instance) { WorkflowRunner(catalog: IntentCatalog(apps: []), secrets: nil) }.metrics.isEnabled)
        #expect(withMetricsFactory(metrics) { WorkflowRunner(catalog: IntentCatalog(apps: []), secrets: nil) }.metrics.isEnabled)
    }
}

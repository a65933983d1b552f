import Foundation
import IntentKit
import Metrics
import MetricsTestKit
import ShortcutsTestSupport
import Testing
import WorkflowKit

@testable import AutomationKit

/// The daemon's metrics after real due times on the real clock, with a `TestMetrics` factory
/// bound by `withMetricsFactory` while the daemon is created: it keeps that factory on its
/// threads and tasks, and for the run history it opens.
@Suite("Daemon metrics", .serialized)
struct DaemonMetricsTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-metrics-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }
    private var home: URL { root.appendingPathComponent("home") }

    @Test("Claims by outcome, the lateness of each start, the gauges, and each run counted once as the history records it")
    func dueTimes() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        func write(_ name: String, _ yaml: String) throws {
            try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("every.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: hello } ]\n")
        try write("skip.yaml", "automation: { schedule: '* * * * * *', overlap: skip }\nsteps: [ { wait: 1500ms } ]\n")
        try write(
            "fails.yaml",
            "automation: { schedule: '* * * * * *' }\nsteps:\n  - set: count\n    to: -1\n  - repeat: { count: \"${count}\" }\n    steps: [ { comment: never } ]\n"
        )
        let metrics = TestMetrics()
        let daemon = withMetricsFactory(metrics) {
            AutomationDaemon(.init(workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: .milliseconds(200)))
        }
        try daemon.start()
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path)
        func claims() throws -> [Claim] {
            try ["every.yaml", "skip.yaml", "fails.yaml"].flatMap {
                try store.claims(of: Automation.key(for: workflows.appendingPathComponent($0)), limit: 1_000)
            }
        }
        try await eventually(watching: [.folder(home)]) {
            let all = try claims()
            return all.filter({ $0.status == .succeeded }).count >= 2 && all.contains(where: { $0.status == .skipped })
                && all.contains(where: { $0.status == .failed })
        }
        #expect(try metrics.expectGauge(DaemonMetric.scheduledAutomations.rawValue).lastValue == 3)
        await daemon.stop()

        let all = try claims()
        func claimed(_ outcome: DaemonMetric.ClaimOutcome) -> Int64 {
            metrics.counterTotal(label: DaemonMetric.claims.rawValue, dimensions: [("outcome", outcome.rawValue)])
        }
        let started = all.filter { $0.status != .skipped && $0.status != .missed }
        #expect(claimed(.started) == Int64(started.count))
        #expect(claimed(.skipped) == Int64(all.filter { $0.status == .skipped }.count))
        #expect(claimed(.skipped) >= 1)
        #expect(claimed(.lost) == 0 && claimed(.queued) == 0 && claimed(.missed) == 0)

        // One lateness per started run, measured as its run begins: never earlier than the start
        // its claim records (the start of runs due together is recorded before they begin).
        let lateness = try metrics.expectTimer(DaemonMetric.lateness.rawValue).values.map { Double($0) / 1e9 }.sorted()
        let claimedLateness = started.compactMap { claim in claim.startedAt.map { $0 - Double(claim.dueTime) } }.sorted()
        #expect(lateness.count == started.count && claimedLateness.count == started.count)
        #expect(lateness.allSatisfy { $0 >= 0 })
        #expect(zip(lateness, claimedLateness).allSatisfy { measured, claimed in measured >= claimed - 0.001 }, "\(lateness) \(claimedLateness)")
        let running = try metrics.expectGauge(DaemonMetric.runningRuns.rawValue).values
        #expect(running.max() ?? 0 >= 1)
        #expect(running.last == 0)

        // Every run counts once, with the status the history holds.
        let history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path, readOnly: true)
        let recorded = try history.runs(RunHistory.Filter(limit: 1_000))
        #expect(recorded.count == started.count)
        for status in [RunHistory.Status.succeeded, .failed, .cancelled, .interrupted] {
            #expect(
                metrics.counterTotal(label: WorkflowMetric.runs.rawValue, dimensions: [("status", status.rawValue), ("trigger", "automation")])
                    == Int64(recorded.filter { $0.status == status }.count), "\(status)")
        }
        #expect(try metrics.expectTimer(WorkflowMetric.runDuration.rawValue, [("trigger", "automation")]).values.count == started.count)
    }
}

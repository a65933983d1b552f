import Foundation
import IntentKit
import Metrics
import MetricsTestKit
import StateStorage
import Testing
import WorkflowKit

/// The run history counts each run it records as ended once, with the run's trigger, in a SQLite
/// file and in a PostgreSQL database alike: a runner's record, a mark, a run settled before its
/// record, a record without its trigger (read back with `RETURNING`).
@Suite("Run history metrics on every store", .serialized, .timeLimit(.minutes(3)))
struct RunHistoryMetricsTests {
    let tiny = try! WorkflowLoader.load(text: "name: Tiny\nsteps:\n  - show: hello\n", fileName: "Workflows/tiny.yaml")

    @Test("Each run counts once, by the status recorded and the trigger it started with", arguments: HistoryStore.available)
    func countsOnce(_ store: HistoryStore) async throws {
        let metrics = TestMetrics()
        let history = try withMetricsFactory(metrics) { try RunHistory(database: try store.makeDatabase()) }
        func runs(_ status: RunHistory.Status, _ trigger: String) -> Int64 {
            metrics.counterTotal(label: WorkflowMetric.runs.rawValue, dimensions: [("status", status.rawValue), ("trigger", trigger)])
        }
        // A runner's record: the runner made outside the factory's scope counts nothing itself.
        _ = try await WorkflowRunner(catalog: IntentCatalog(apps: []), history: history, trigger: "mcp", secrets: nil).run(tiny)
        #expect(runs(.succeeded, "mcp") == 1)

        // Runs begun by a scheduler, then ended without their runner's trigger: read back from the record.
        try history.begin(
            [
                ("Workflows/tiny.yaml", "Tiny", "scheduled-a"), ("Workflows/tiny.yaml", "Tiny", "scheduled-b"),
                ("Workflows/tiny.yaml", "Tiny", "scheduled-c")
            ],
            trigger: "automation")
        try history.finish("scheduled-a", status: .failed, output: nil, error: "no", steps: [])
        #expect(runs(.failed, "automation") == 1)
        #expect(try history.mark(["scheduled-b", "scheduled-c", "unknown"], as: .interrupted, error: "interrupted: the daemon stopped") == 2)
        #expect(runs(.interrupted, "automation") == 2)

        // Settled already: a late record, or a mark of an ended run, counts nothing more.
        try history.finish("scheduled-b", status: .succeeded, output: nil, error: nil, steps: [], trigger: "automation")
        #expect(try history.mark(["scheduled-a"], as: .cancelled, error: "replaced", onlyRunning: false) == 1)
        #expect(try history.run(matching: "scheduled-a").run.status == .cancelled)
        #expect(runs(.succeeded, "automation") == 0 && runs(.cancelled, "automation") == 0)
        #expect(metrics.counters(label: WorkflowMetric.runs.rawValue).map(\.totalValue).reduce(0, +) == 4)

        // A run whose start was never recorded counts when it is added, once.
        let unbegun = [(file: "Workflows/tiny.yaml", name: "Tiny" as String?, id: "unbegun", startedAt: Date())]
        #expect(try history.recordUnbegun(unbegun, trigger: "automation", status: .interrupted, error: "interrupted") == 1)
        #expect(try history.recordUnbegun(unbegun, trigger: "automation", status: .interrupted, error: "interrupted") == 0)
        #expect(runs(.interrupted, "automation") == 3)
    }
}

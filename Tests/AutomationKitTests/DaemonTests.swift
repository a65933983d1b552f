import Foundation
import GRDB
import IntentKit
import Testing
import WorkflowKit
@testable import AutomationKit

/// The daemon in this process, on the real clock, with every-second automations: overlap
/// policies, timeout, retry, reload on a new file, and a clean stop.
@Suite("Daemon", .serialized)
struct DaemonTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("automation-daemon-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }
    private var home: URL { root.appendingPathComponent("home") }

    private func write(_ name: String, _ yaml: String) throws {
        try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test("Overlap policies, timeout, retry and reload, then a clean stop")
    func policies() async throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try write("queue.yaml", "automation: { schedule: '* * * * * *', overlap: queue }\nsteps: [ { wait: 1300ms } ]\n")
        try write("replace.yaml", "automation: { schedule: '* * * * * *', overlap: replace }\nsteps: [ { wait: 1500ms } ]\n")
        try write("parallel.yaml", "automation: { schedule: '* * * * * *', overlap: parallel }\nsteps: [ { wait: 1500ms } ]\n")
        try write("timeout.yaml", "automation: { schedule: '* * * * * *', timeout: 200ms }\nsteps: [ { wait: 1s } ]\n")
        try write("retry.yaml", """
            automation: { schedule: '* * * * * *', retry: { attempts: 2, backoff: 100ms } }
            steps:
              - set: count
                to: -1
              - repeat: { count: "${count}" }
                steps: [ { comment: never runs } ]
            """)
        let lines = LogLines()
        let daemon = AutomationDaemon(.init(workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: .milliseconds(200)),
                                      log: lines.append)
        try daemon.start()
        #expect(daemon.scheduledCount == 5)
        try await Task.sleep(for: .milliseconds(3300))
        try write("added.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: added } ]\n")
        try await Task.sleep(for: .milliseconds(1600))
        await daemon.stop()

        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path)
        func claims(_ file: String) throws -> [Claim] {
            try store.claims(of: Automation.key(for: workflows.appendingPathComponent(file)), limit: 100).reversed()
        }
        let queued = try claims("queue.yaml")
        #expect(queued.contains { ($0.startedAt ?? 0) - Double($0.dueTime) > 0.2 }, "a queued due time started after the previous run")
        #expect(!queued.contains { $0.status == .skipped })

        let replaced = try claims("replace.yaml")
        #expect(replaced.contains { $0.status == .cancelled && $0.note?.hasPrefix("replaced by the run due at") == true })

        let parallel = try claims("parallel.yaml").filter { $0.startedAt != nil }
        #expect(zip(parallel, parallel.dropFirst()).contains { first, second in
            second.startedAt! < (first.endedAt ?? .infinity)
        }, "parallel runs overlap")

        let timedOut = try claims("timeout.yaml")
        #expect(timedOut.contains { $0.status == .timedOut && $0.note == "timed out after 200 ms" })

        let retried = try claims("retry.yaml").filter { $0.status == .failed }
        #expect(!retried.isEmpty)
        #expect(retried.allSatisfy { $0.attempts == 2 && $0.note == "expected a whole number of 0 or more, got Int '-1'" })

        #expect(try claims("added.yaml").contains { $0.status == .succeeded })
        #expect(lines.contains("scheduling added (added.yaml)"))

        let pending = try await store.database.read { try Claim.filter(sql: "status IN ('queued', 'running')").fetchCount($0) }
        #expect(pending == 0, "every claim ended when the daemon stopped")
        let runs = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path).recentRuns(limit: 1000)
        #expect(runs.allSatisfy { $0.trigger == "automation" && $0.status != .running })
        #expect(runs.contains { $0.workflow.hasSuffix("timeout.yaml") && $0.status == .failed
                                && $0.error == "timed out after 200 ms (automation timeout)" })
        #expect(runs.filter { $0.workflow.hasSuffix("retry.yaml") }.count >= 2 * retried.count)
        #expect(lines.contains("stopped"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("daemons").path).isEmpty)
    }

    @Test("A daemon stopped before it started, or while starting, stops")
    func earlyStops() async throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try write("tick.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: tick } ]\n")
        let configuration = AutomationDaemon.Configuration(workflows: workflows, catalog: IntentCatalog(apps: []), home: home)
        await AutomationDaemon(configuration).stop()
        let daemon = AutomationDaemon(configuration)
        daemon.requestStop()
        try await daemon.run()
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("daemons").path).isEmpty)
    }
}

/// The daemon's log lines, collected.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    @Sendable func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    func contains(_ line: String) -> Bool {
        lock.withLock { lines.contains(line) }
    }
}

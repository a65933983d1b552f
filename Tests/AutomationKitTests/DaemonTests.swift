import Foundation
import GRDB
import IntentKit
import Logging
import ShortcutsTestSupport
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
        // A wait far longer than the timeout, so that a busy machine that resumes tasks late
        // cannot let it end before its timeout does.
        try write("timeout.yaml", "automation: { schedule: '* * * * * *', timeout: 200ms }\nsteps: [ { wait: 30s } ]\n")
        try write(
            "retry.yaml",
            """
            automation: { schedule: '* * * * * *', retry: { attempts: 2, backoff: 100ms } }
            steps:
              - set: count
                to: -1
              - repeat: { count: "${count}" }
                steps: [ { comment: never runs } ]
            """)
        let lines = LogLines()
        let daemon = AutomationDaemon(
            .init(workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: .milliseconds(200)),
            logger: lines.logger)
        try daemon.start()
        #expect(daemon.scheduledCount == 5)
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path)
        func claims(_ file: String) throws -> [Claim] {
            try store.claims(of: Automation.key(for: workflows.appendingPathComponent(file)), limit: 100).reversed()
        }
        // A few seconds on an idle machine; a machine busy with other tests only makes it slower.
        try await eventually(timeout: 60) {
            try claims("queue.yaml").contains { ($0.startedAt ?? 0) - Double($0.dueTime) > 0.2 }
                && claims("replace.yaml").contains { $0.status == .cancelled }
                && claims("parallel.yaml").filter { $0.startedAt != nil }.count >= 3
                && claims("timeout.yaml").contains { $0.status == .timedOut }
                && claims("retry.yaml").contains { $0.status == .failed }
        }
        try write("added.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: added } ]\n")
        try await eventually(timeout: 60) { try claims("added.yaml").contains { $0.status == .succeeded } }
        await daemon.stop()

        let queued = try claims("queue.yaml")
        #expect(queued.contains { ($0.startedAt ?? 0) - Double($0.dueTime) > 0.2 }, "a queued due time started after the previous run")
        #expect(!queued.contains { $0.status == .skipped })

        let replaced = try claims("replace.yaml")
        #expect(replaced.contains { $0.status == .cancelled && $0.note?.hasPrefix("replaced by the run due at") == true })

        let parallel = try claims("parallel.yaml").filter { $0.startedAt != nil }
        #expect(
            zip(parallel, parallel.dropFirst()).contains { first, second in
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
        #expect(
            runs.contains {
                $0.workflow.hasSuffix("timeout.yaml") && $0.status == .failed
                    && $0.error == "timed out after 200 ms (automation timeout)"
            })
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

extension DaemonTests {
    @Test("@reboot runs once per start; stale lock files go; a second daemon is warned; reload() picks up a file")
    func startAndService() async throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        // Each start runs its @reboot, even while another start's still runs (a busy machine).
        try write("boot.yaml", "automation: { schedule: '@reboot', overlap: parallel }\nsteps: [ { show: booted } ]\n")
        let locks = home.appendingPathComponent("daemons")
        try FileManager.default.createDirectory(at: locks, withIntermediateDirectories: true)
        let stale = locks.appendingPathComponent("0badc0de-dead-dead-dead-000000000000.lock")
        #expect(FileManager.default.createFile(atPath: stale.path, contents: nil))
        // Reloads come from reload() alone here, not from watching the folder.
        let configuration = AutomationDaemon.Configuration(
            workflows: workflows, catalog: IntentCatalog(apps: []), home: home,
            grace: .seconds(2), watchesFolder: false)
        let firstLines = LogLines()
        let first = AutomationDaemon(configuration, logger: firstLines.logger)
        try first.start()
        #expect(!FileManager.default.fileExists(atPath: stale.path), "the stale lock file was removed")
        #expect(firstLines.contains("removed 1 stale lock file of stopped daemons from \(locks.path)"))
        #expect(firstLines.first { $0.contains("other daemon") || $0.contains("another daemon") } == nil)

        let secondLines = LogLines()
        let second = AutomationDaemon(configuration, logger: secondLines.logger)
        try second.start()
        let warning = try #require(secondLines.first { $0.hasPrefix("another daemon (pid \(getpid()))") })
        #expect(secondLines.level(of: warning) == .warning)
        #expect(warning.contains("no due time runs twice"))
        #expect(warning.contains("overlap: holds across the daemons"))

        try write("late.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: late } ]\n")
        first.reload()
        #expect(try await eventually(timeout: 30) { firstLines.contains("scheduling late (late.yaml)") })
        // On a busy machine a start's @reboot run may still be queued; a stop would cancel it.
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path)
        let bootKey = Automation.key(for: workflows.appendingPathComponent("boot.yaml"))
        #expect(
            try await eventually(timeout: 30) {
                let claims = try store.claims(of: bootKey, limit: 10)
                return !claims.isEmpty && claims.allSatisfy { $0.status != .queued && $0.status != .running }
            })
        await first.stop()
        await second.stop()

        let boots = try store.claims(of: bootKey, limit: 10)
        #expect(boots.count >= 1 && boots.count <= 2, "one claim per start (two starts in one second share it)")
        #expect(boots.allSatisfy { $0.status == .succeeded })
        let third = AutomationDaemon(configuration)
        try await Task.sleep(for: .seconds(1))
        try third.start()
        #expect(
            try await eventually(timeout: 30) {
                let claims = try store.claims(of: bootKey, limit: 10)
                return claims.count > boots.count && claims.allSatisfy { $0.status != .queued && $0.status != .running }
            })
        await third.stop()
        let afterRestart = try store.claims(of: bootKey, limit: 10)
        #expect(afterRestart.count == boots.count + 1, "a restart runs @reboot once more")
        #expect(afterRestart.allSatisfy { $0.status == .succeeded })
    }
}

/// The daemon's log records, collected.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var levels: [String: Logger.Level] = [:]

    /// A logger whose records (every level) end up here.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.append("\(event.message)", level: event.level)
        }
    }

    func append(_ line: String, level: Logger.Level) {
        lock.withLock {
            lines.append(line)
            levels[line] = level
        }
    }

    func level(of line: String) -> Logger.Level? {
        lock.withLock { levels[line] }
    }

    func first(where predicate: (String) -> Bool) -> String? {
        lock.withLock { lines.first(where: predicate) }
    }

    func contains(_ line: String) -> Bool {
        lock.withLock { lines.contains(line) }
    }
}

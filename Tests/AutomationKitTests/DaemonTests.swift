import Foundation
import GRDB
import IntentKit
import Logging
import ShortcutsTestSupport
import Testing
import WorkflowKit

@testable import AutomationKit

/// The daemon in this process, on the real clock: stopping while it starts, `@reboot`, lock
/// files and a second daemon (its policies in time are `DaemonClockTests`, on a manual clock).
@Suite("Daemon", .serialized)
struct DaemonTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("automation-daemon-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }
    private var home: URL { root.appendingPathComponent("home") }

    private func write(_ name: String, _ yaml: String) throws {
        try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test("A daemon stopped before it started, or while starting, stops")
    func earlyStops() async throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try write("tick.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: tick } ]\n")
        var configuration = AutomationDaemon.Configuration(workflows: workflows, catalog: IntentCatalog(apps: []), home: home)
        configuration.clock = ManualClock()
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
        let clock = ManualClock()
        var configuration = AutomationDaemon.Configuration(
            workflows: workflows, catalog: IntentCatalog(apps: []), home: home,
            grace: .seconds(2), watchesFolder: false)
        configuration.clock = clock
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
        #expect(try await eventually(watching: [.notice(firstLines.appended)]) { firstLines.contains("scheduling late (late.yaml)") })
        // A start's @reboot run may still be queued; a stop would cancel it.
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path, clock: clock)
        let bootKey = Automation.key(for: workflows.appendingPathComponent("boot.yaml"))
        #expect(
            try await eventually(watching: [.folder(home)]) {
                let claims = try store.claims(of: bootKey, limit: 10)
                return !claims.isEmpty && claims.allSatisfy { $0.status != .queued && $0.status != .running }
            })
        await first.stop()
        await second.stop()

        let boots = try store.claims(of: bootKey, limit: 10)
        #expect(boots.count == 1, "one claim for the two starts: they started in the same second")
        #expect(boots.allSatisfy { $0.status == .succeeded })
        let third = AutomationDaemon(configuration)
        clock.advance(by: .seconds(1))
        try third.start()
        #expect(
            try await eventually(watching: [.folder(home)]) {
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

    /// Fired after each record, for a test waiting for one.
    let appended = ChangeNotice()

    func append(_ line: String, level: Logger.Level) {
        lock.withLock {
            lines.append(line)
            levels[line] = level
        }
        appended.post()
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

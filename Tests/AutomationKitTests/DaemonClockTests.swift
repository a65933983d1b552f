import Foundation
import IntentKit
import ShortcutsTestSupport
import StateStorage
import Synchronization
import Testing
import WorkflowKit

@testable import AutomationKit

/// The daemon in this process on a manual clock: every due time, backoff, timeout, overlap and
/// grace period happens when the test advances the clock, and each test checks exact times.
/// Nothing here sleeps or bounds real time; the waits are for events (a sleeper's deadline on
/// the clock, a row in the store).
@Suite("Daemon on a manual clock")
struct DaemonClockTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-clock-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }
    private var home: URL { root.appendingPathComponent("home") }
    /// 2027-01-15 08:00:00 UTC, the manual clock's start.
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    /// A daemon on `clock` running one workflow file.
    private func daemon(
        _ name: String, _ yaml: String, clock: ManualClock, grace: Duration = .seconds(10), watchesFolder: Bool = false
    ) throws -> (AutomationDaemon, AutomationStore) {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
        var configuration = AutomationDaemon.Configuration(
            workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: grace, watchesFolder: watchesFolder)
        configuration.clock = clock
        let daemon = AutomationDaemon(configuration)
        try daemon.start()
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path, clock: clock)
        return (daemon, store)
    }

    private func claims(_ store: AutomationStore, _ name: String) throws -> [Claim] {
        try store.claims(of: Automation.key(for: workflows.appendingPathComponent(name)), limit: 100).reversed()
    }

    private func runs() throws -> [RunHistory.Run] {
        try RunHistory(path: home.appendingPathComponent("runs.sqlite").path, readOnly: true).recentRuns(limit: 100).reversed()
    }

    /// Waits for the store to show what `condition` looks for: an event, with patience for a
    /// broken test only.
    private func until(_ condition: () throws -> Bool) async throws {
        #expect(try await eventually(watching: [.folder(home)]) { try condition() })
    }

    @Test("A failed attempt is tried again after its whole backoff by the clock, not before")
    func retryBackoff() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "retry.yaml",
            """
            automation: { schedule: '0 * * * *', retry: { attempts: 2, backoff: 10m } }
            steps:
              - set: count
                to: -1
              - repeat: { count: "${count}" }
                steps: [ { comment: never runs } ]
            """, clock: clock)
        try await clock.waitForSleeper { $0 == at(3600) }
        clock.advance(to: at(3600))
        // The backoff is a sleeper ten minutes after the first attempt.
        try await clock.waitForSleeper { $0 == at(4200) }
        #expect(try runs().map(\.status) == [.failed])
        #expect(try claims(store, "retry.yaml").map(\.status) == [.running])
        clock.advance(by: .seconds(599))
        try await clock.waitForSleeper { $0 == at(4200) }
        #expect(try runs().count == 1, "not before the backoff is over")
        clock.advance(by: .seconds(1))
        try await until { try claims(store, "retry.yaml").first?.status == .failed }
        let claim = try #require(try claims(store, "retry.yaml").first)
        #expect(claim.attempts == 2)
        #expect(claim.note == "expected a whole number of 0 or more, got Int '-1'")
        #expect(claim.startedAt == at(3600).timeIntervalSince1970)
        #expect(claim.endedAt == at(4200).timeIntervalSince1970)
        #expect(try runs().map(\.startedAt) == [at(3600), at(4200)])
        await clock.advancing { await daemon.stop() }
    }

    @Test("A run past its timeout: is cancelled at that instant and recorded as timed out")
    func timeout() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "slow.yaml", "automation: { schedule: '0 * * * *', timeout: 5m }\nsteps: [ { wait: 1h } ]\n", clock: clock)
        try await clock.waitForSleeper { $0 == at(3600) }
        clock.advance(to: at(3600))
        try await clock.waitForSleeper { $0 == at(3600 + 300) }
        clock.advance(by: .seconds(300))
        try await until { try claims(store, "slow.yaml").first?.status == .timedOut }
        let claim = try #require(try claims(store, "slow.yaml").first)
        #expect(claim.note == "timed out after 300 s")
        #expect(claim.endedAt == at(3900).timeIntervalSince1970)
        let run = try #require(try runs().first)
        #expect(run.status == .failed)
        #expect(run.error == "timed out after 300 s (automation timeout)")
        #expect(run.endedAt == at(3900))
        await clock.advancing { await daemon.stop() }
    }

    @Test("overlap: queue starts a due time the moment the run before it ends")
    func overlapQueue() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "queue.yaml", "automation: { schedule: '* * * * *', overlap: queue }\nsteps: [ { wait: 90s } ]\n", clock: clock)
        try await clock.waitForSleeper { $0 == at(60) }
        clock.advance(to: at(60))
        try await clock.waitForSleeper { $0 == at(150) }  // the first run's wait
        clock.advance(to: at(120))
        try await until { try claims(store, "queue.yaml").map(\.status) == [.running, .queued] }
        clock.advance(to: at(150))
        try await until { try claims(store, "queue.yaml").map(\.status) == [.succeeded, .running] }
        let second = try claims(store, "queue.yaml")[1]
        #expect(second.dueTime == Int64(at(120).timeIntervalSince1970))
        #expect(second.startedAt == at(150).timeIntervalSince1970, "queued behind the first run, it starts when that run ends")
        await clock.advancing { await daemon.stop() }
    }

    @Test("overlap: replace cancels the running run when the next due time comes")
    func overlapReplace() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "replace.yaml", "automation: { schedule: '* * * * *', overlap: replace }\nsteps: [ { wait: 90s } ]\n", clock: clock)
        try await clock.waitForSleeper { $0 == at(60) }
        clock.advance(to: at(60))
        try await clock.waitForSleeper { $0 == at(150) }
        clock.advance(to: at(120))
        try await until { try claims(store, "replace.yaml").map(\.status) == [.cancelled, .running] }
        let replaced = try claims(store, "replace.yaml")[0]
        // Which words the note has depends on what reaches the run first when the clock moves:
        // the claim that replaced it, or the heartbeat that finds it marked for cancelling.
        #expect(
            ["replaced by the run due at 2027-01-15T08:02:00Z (overlap: replace)", "replaced by a newer run (overlap: replace)"]
                .contains(replaced.note ?? ""))
        #expect(replaced.endedAt == at(120).timeIntervalSince1970)
        await clock.advancing { await daemon.stop() }
    }

    @Test("overlap: skip records the due time that came while a run went on as skipped")
    func overlapSkip() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "skip.yaml", "automation: { schedule: '* * * * *', overlap: skip }\nsteps: [ { wait: 90s } ]\n", clock: clock)
        try await clock.waitForSleeper { $0 == at(60) }
        clock.advance(to: at(60))
        try await clock.waitForSleeper { $0 == at(150) }
        clock.advance(to: at(120))
        try await until { try claims(store, "skip.yaml").map(\.status) == [.running, .skipped] }
        clock.advance(to: at(150))
        try await until { try claims(store, "skip.yaml").first?.status == .succeeded }
        await clock.advancing { await daemon.stop() }
    }

    @Test("overlap: parallel starts each due time at once, beside the runs still going")
    func overlapParallel() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "parallel.yaml", "automation: { schedule: '* * * * *', overlap: parallel }\nsteps: [ { wait: 150s } ]\n", clock: clock)
        try await clock.waitForSleeper { $0 == at(60) }
        clock.advance(to: at(60))
        try await clock.waitForSleeper { $0 == at(210) }
        clock.advance(to: at(120))
        try await clock.waitForSleeper { $0 == at(270) }
        clock.advance(to: at(180))
        try await clock.waitForSleeper { $0 == at(330) }
        let started = try claims(store, "parallel.yaml")
        #expect(started.map(\.status) == [.running, .running, .running], "three runs at once")
        #expect(started.map(\.claimedAt) == [at(60), at(120), at(180)].map(\.timeIntervalSince1970), "each claimed when due")
        clock.advance(to: at(210))
        try await until { try claims(store, "parallel.yaml").first?.status == .succeeded }
        let first = try #require(try claims(store, "parallel.yaml").first)
        #expect(first.startedAt == at(60).timeIntervalSince1970)
        #expect(first.endedAt == at(210).timeIntervalSince1970)
        await clock.advancing { await daemon.stop() }
    }

    @Test("A file added to the folder is scheduled once the folder's debounce is over by the clock")
    func reloadOnNewFile() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "first.yaml", "automation: { schedule: '0 * * * *' }\nsteps: [ { show: first } ]\n", clock: clock, watchesFolder: true)
        #expect(daemon.scheduledCount == 1)
        try "automation: { schedule: '30 * * * *' }\nsteps: [ { show: added } ]\n"
            .write(to: workflows.appendingPathComponent("added.yaml"), atomically: true, encoding: .utf8)
        // The watcher waits out its debounce on the clock before the daemon reads the file.
        let debounced = clock.now().addingTimeInterval(0.1)
        try await clock.waitForSleeper { $0 == debounced }
        clock.advance(to: debounced)
        try await until { daemon.scheduledCount == 2 }
        try await clock.waitForSleeper { $0 == at(1800) }
        clock.advance(to: at(1800))
        try await until { try claims(store, "added.yaml").first?.status == .succeeded }
        #expect(try claims(store, "added.yaml").first?.dueTime == Int64(at(1800).timeIntervalSince1970))
        await clock.advancing { await daemon.stop() }
    }

    @Test("A due time whose start cannot be recorded while the history's database is away runs once it answers, recorded")
    func startRecordedAfterAnOutage() async throws {
        let clock = ManualClock()
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try "automation: { schedule: '0 * * * *' }\nsteps: [ { comment: runs } ]\n".write(
            to: workflows.appendingPathComponent("hourly.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let historyPath = home.appendingPathComponent("runs.sqlite").path
        let database = AwayDatabase(base: try SQLiteStateDatabase(path: historyPath, migrator: RunHistory.migrator))
        let history = try RunHistory(database: database, clock: clock)
        let store = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path, clock: clock)
        var configuration = AutomationDaemon.Configuration(workflows: workflows, catalog: IntentCatalog(apps: []), home: home)
        configuration.clock = clock
        configuration.stores = DaemonStores(automations: store, history: history)
        let daemon = AutomationDaemon(configuration)
        try daemon.start()
        try await clock.waitForSleeper { $0 == at(3600) }
        database.isAway.withLock { $0 = true }
        clock.advance(to: at(3600))
        // Claimed, not started: the start is tried again after the backoff's first quarter second.
        try await clock.waitForSleeper { $0 == at(3600.25) }
        #expect(try claims(store, "hourly.yaml").map(\.status) == [.running])
        clock.advance(by: .milliseconds(250))
        try await clock.waitForSleeper { $0 == at(3600.75) }
        database.isAway.withLock { $0 = false }
        clock.advance(by: .milliseconds(500))
        try await until { try claims(store, "hourly.yaml").first?.status == .succeeded }
        let claim = try #require(try claims(store, "hourly.yaml").first)
        let run = try #require(try runs().first)
        #expect(claim.runID == run.id)
        #expect(run.status == .succeeded)
        #expect(run.startedAt == at(3600.75), "recorded as started when the database answered")
        await clock.advancing { await daemon.stop() }
    }

    @Test("A stop gives running workflows their grace period by the clock, then cancels them")
    func grace() async throws {
        let clock = ManualClock()
        let (daemon, store) = try daemon(
            "long.yaml", "automation: { schedule: '0 * * * *' }\nsteps: [ { wait: 1h } ]\n", clock: clock, grace: .seconds(30))
        try await clock.waitForSleeper { $0 == at(3600) }
        clock.advance(to: at(3600))
        try await clock.waitForSleeper { $0 == at(7200) }
        let stopped = Task { await daemon.stop() }
        try await clock.waitForSleeper { $0 == at(3630) }
        #expect(try claims(store, "long.yaml").first?.status == .running, "still running within the grace period")
        clock.advance(by: .seconds(30))
        await stopped.value
        let claim = try #require(try claims(store, "long.yaml").first)
        #expect(claim.status == .cancelled)
        #expect(claim.note == "cancelled: the daemon stopped and its grace period of 30 s was over")
        #expect(claim.endedAt == at(3630).timeIntervalSince1970)
        #expect(try runs().first?.status == .cancelled)
        #expect(try runs().allSatisfy { $0.trigger == "automation" && $0.status != .running })
        #expect(try store.pendingClaims(notOwnedBy: "").isEmpty, "every claim ended when the daemon stopped")
        let locks = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("daemons").path)
        #expect(locks.isEmpty, "the daemon's lock file is gone")
    }
}

/// A state database that refuses every statement as if it could not be reached while
/// ``isAway`` is set.
private final class AwayDatabase: StateDatabase {
    let isAway = Mutex(false)
    let base: SQLiteStateDatabase

    init(base: SQLiteStateDatabase) { self.base = base }

    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }

    private func check() throws {
        if isAway.withLock({ $0 }) { throw StateDatabaseError(location: location, reason: "away", isUnavailable: true) }
    }

    func write<Result>(durable: Bool, _ body: (any StateConnection) throws -> Result) throws -> Result {
        try check()
        return try base.write(durable: durable, body)
    }

    func read<Result>(_ body: (any StateConnection) throws -> Result) throws -> Result {
        try check()
        return try base.read(body)
    }
}

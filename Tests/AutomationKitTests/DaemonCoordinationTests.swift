import Foundation
import ShortcutsTestSupport
import StateStorage
import Synchronization
import Testing

@testable import AutomationKit

/// The pieces daemons coordinate with: the clock corrected to the database's, the ranking
/// that spreads due times over daemons, the backoff and backlog of an outage, and the writer
/// that keeps records until the database answers.
@Suite("Daemon coordination")
struct DaemonCoordinationTests {
    @Test("The clock is corrected by the database's, measured at the middle of the round trip")
    func clock() {
        let local = ManualClock()
        let clock = DaemonClock(local: local)
        #expect(clock.offset == 0)
        let sent = local.now()
        clock.measure(databaseNow: sent.addingTimeInterval(30.5), sent: sent, received: sent.addingTimeInterval(1))
        #expect(abs(clock.offset - 30) < 1e-6)
        #expect(clock.now() == local.now().addingTimeInterval(clock.offset))
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(clock.localDate(for: due) == due.addingTimeInterval(-30))
    }

    @Test("Every daemon ranks a due time alike, each rank once, and due times spread evenly")
    func ranking() {
        let daemons = (0..<3).map { _ in UUID().uuidString.lowercased() }
        let ranking = RendezvousRanking(daemons: daemons)
        let shuffled = RendezvousRanking(daemons: daemons.reversed())
        var firsts: [String: Int] = [:]
        for second in Int64(1_800_000_000)..<1_800_003_000 {
            let ranks = daemons.map { ranking.rank(of: $0, key: "reports/daily.yaml", dueTime: second) }
            #expect(Set(ranks) == [0, 1, 2])
            #expect(daemons.map { shuffled.rank(of: $0, key: "reports/daily.yaml", dueTime: second) } == ranks)
            firsts[daemons[ranks.firstIndex(of: 0)!], default: 0] += 1
        }
        // 3,000 due times over 3 daemons: each gets about 1,000 (the odds of falling outside ±150 are below 1e-6).
        #expect(firsts.values.allSatisfy { abs($0 - 1_000) < 150 }, "\(firsts)")
        #expect(ranking.delay(for: "a.yaml", dueTime: 1, daemon: "someone else") == 3 * RendezvousRanking.step)
        #expect(RendezvousRanking(daemons: []).rank(of: "alone", key: "a.yaml", dueTime: 1) == 0)
        #expect(RendezvousRanking.weight(daemon: "a", key: "b", dueTime: 1) == RendezvousRanking.weight(daemon: "a", key: "b", dueTime: 1))
    }

    @Test("Backoff doubles from a quarter second to five seconds, and starts again after a success")
    func backoff() {
        var backoff = RetryBackoff()
        #expect((0..<8).map { _ in backoff.failed() } == [0.25, 0.5, 1, 2, 4, 5, 5, 5])
        backoff.succeeded()
        #expect(backoff.failed() == 0.25)
        #expect(RetryBackoff.isTransient(StateDatabaseError(location: "db", reason: "down", isUnavailable: true)))
        #expect(RetryBackoff.isTransient(StateDatabaseError(location: "db", reason: "lost", isCommitUncertain: true)))
        #expect(!RetryBackoff.isTransient(StateDatabaseError(location: "db", reason: "syntax error")))
    }

    @Test("The backlog keeps each automation's earliest and latest unclaimed due time")
    func backlog() {
        var backlog = ClaimBacklog()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        backlog.add(key: "a", dueTime: now.addingTimeInterval(2))
        backlog.add(key: "a", dueTime: now)
        backlog.add(key: "b", dueTime: now.addingTimeInterval(1))
        backlog.failed(now: now)
        #expect(backlog.retryAt == now.addingTimeInterval(0.25))
        backlog.failed(now: now)
        #expect(backlog.retryAt == now.addingTimeInterval(0.25), "a try already due is not put off")
        #expect(backlog.contains("a"))
        let taken = backlog.take()
        #expect(taken["a"] == .init(earliest: now, latest: now.addingTimeInterval(2)))
        #expect(backlog.isEmpty && backlog.retryAt == nil)
        backlog.add(key: "a", dueTime: now)
        backlog.failed(now: now)
        #expect(backlog.retryAt == now.addingTimeInterval(0.5), "the second failure in a row waits twice as long")
        backlog.remove("a")
        #expect(backlog.isEmpty && backlog.retryAt == nil)
    }

    @Test("The writer keeps records while the database is away and writes them in order once it answers")
    func writer() async throws {
        let database = try SQLiteStateDatabase(path: ":memory:", migrator: .init())
        try database.write { try $0.execute("CREATE TABLE record (n INTEGER)", []) }
        let outage = Outage()
        let ignore: @Sendable (String) -> Void = { _ in }
        let clock = ManualClock()
        let writer = RetryingWriter<Int>(label: "numbers", clock: clock, log: ignore) { batch in
            if outage.isDown { throw StateDatabaseError(location: database.location, reason: "down", isUnavailable: true) }
            try database.write { connection in
                for number in batch { try connection.execute("INSERT INTO record (n) VALUES (?)", [.integer(Int64(number))]) }
            }
        }
        outage.isDown = true
        for number in 1...5 { writer.record(number) }
        // The flush tries, then waits on the clock between tries until its 30 s are over; the
        // writer's own retries sleep on it too, all the while the database is away.
        let started = clock.now()
        let flushed = Mutex(false)
        let flushing = Task.detached {
            defer { flushed.withLock { $0 = true } }
            return writer.flush(within: 30)
        }
        while !flushed.withLock({ $0 }) {
            try await clock.waitForSleeper { _ in true }
            clock.advanceToNextDeadline()
        }
        #expect(await flushing.value == 5, "nothing is written while the database is away")
        #expect(clock.now() >= started.addingTimeInterval(30), "the flush kept trying for its whole 30 s")
        writer.record([6, 7])
        outage.isDown = false
        #expect(writer.flush(within: 5) == 0, "written at the first try once the database answers")
        let numbers = try database.read { try $0.rows("SELECT n FROM record ORDER BY rowid", []).compactMap { $0.int("n") } }
        #expect(numbers == Array(1...7))
    }
}

/// Whether the test's database is to refuse writes as if it could not be reached.
private final class Outage: @unchecked Sendable {
    private let lock = NSLock()
    private var down = false
    var isDown: Bool {
        get { lock.withLock { down } }
        set { lock.withLock { down = newValue } }
    }
}

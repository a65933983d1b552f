import Foundation
import ShortcutsSystemTestSupport
import StateStorage
import Testing
import WorkflowKit

@testable import AutomationKit

/// The automation store behaves alike on every database it runs on: due times claimed once,
/// leases that fence a daemon out once another took it over, `overlap:` across daemons,
/// promotions, cancellations, run requests taken once, adoption of uncertain commits, and
/// leases that expire by the database's clock. The checks are written once
/// (``AutomationStoreBehaviour``) and run on SQLite here and on PostgreSQL in
/// `AutomationStoreOnPostgresTests`.
@Suite("Automation store behaviour on SQLite")
struct AutomationStoreOnSQLiteTests {
    @Test("Three daemons claiming the same due times at once, each with its own store, get each one exactly once")
    func exactlyOnce() throws { try AutomationStoreBehaviour(place: .sqlite()).exactlyOnce() }

    @Test("A daemon taken over after its lease expired is fenced out: no claim, start, ending or renewal")
    func fencing() throws { try AutomationStoreBehaviour(place: .sqlite()).fencing() }

    @Test("Three daemons taking over one expired daemon at once: one of them gets its claims")
    func takeOverOnce() throws { try AutomationStoreBehaviour(place: .sqlite()).takeOverOnce() }

    @Test("overlap: skip, queue and replace hold across two daemons' runs")
    func globalOverlap() throws { try AutomationStoreBehaviour(place: .sqlite()).globalOverlap() }

    @Test("A queued claim is promoted only when no run of its automation goes and no earlier due time waits")
    func promotions() throws { try AutomationStoreBehaviour(place: .sqlite()).promotions() }

    @Test("Three daemons taking run requests at once take each one once")
    func runRequests() throws { try AutomationStoreBehaviour(place: .sqlite()).runRequests() }

    @Test("Run requests taken by a daemon that is taken over become interrupted")
    func runRequestsOfTakenOverDaemon() throws { try AutomationStoreBehaviour(place: .sqlite()).runRequestsOfTakenOverDaemon() }

    @Test("A claim retried after an uncertain commit is adopted by its daemon, and lost to others")
    func uncertainCommitAdoption() throws { try AutomationStoreBehaviour(place: .sqlite()).uncertainCommitAdoption() }

    @Test("Leases expire by the database's clock, and a renewal before a takeover keeps the daemon")
    func expiry() throws { try AutomationStoreBehaviour(place: .sqlite()).expiry() }

    @Test("The claims of a window of due times come earliest first, with when each run started")
    func claimsInWindow() throws { try AutomationStoreBehaviour(place: .sqlite()).claimsInWindow() }
}

/// The shared checks, on the stores one ``StorePlace`` opens.
struct AutomationStoreBehaviour {
    let place: StorePlace

    /// Three daemons claiming the same due times at once, each with its own store, get each one exactly once.
    func exactlyOnce() throws {
        let keys = (0..<10).map { "automation-\($0).yaml" }
        let dueTimes = Int64(1_000)..<1_030
        let won = Locked<[Claim]>([])
        let ready = Barrier(count: 3)
        let failures = Locked<[String]>([])
        let threads = (0..<3).map { index -> @Sendable () -> Void in
            {
                do {
                    let store = try place.store()
                    let lease = try store.register(.test("daemon-\(index)"))
                    ready.arrive()
                    // Five due times of each automation per batch: claimed in rounds within the transaction.
                    for first in stride(from: dueTimes.lowerBound, to: dueTimes.upperBound, by: 5) {
                        let requests = keys.flatMap { key in
                            (first..<first + 5).map { ClaimRequest(automationKey: key, dueTime: $0, overlap: .parallel, runID: UUID().uuidString) }
                        }
                        let results = try store.claim(requests.shuffled(), lease: lease)
                        won.withLock { $0 += results.compactMap(\.claim) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        try runToEnd(threads)
        #expect(failures.value.isEmpty)
        let claims = won.value
        #expect(claims.count == keys.count * dueTimes.count)
        #expect(Set(claims.map { "\($0.automationKey) \($0.dueTime)" }).count == claims.count)
        let store = try place.store()
        let stored = try keys.reduce(0) { $0 + (try store.claims(of: $1, limit: 1_000).count) }
        #expect(stored == claims.count)
    }

    /// A daemon taken over after its lease expired is fenced out: no claim, start, ending or renewal.
    func fencing() throws {
        let store = try place.store()
        let paused = try store.register(.test("paused", lease: place.shortLease))
        let live = try place.store().register(.test("live"))
        guard case .claimed(let claim, _) = try store.claim([.test("report.yaml", 100)], lease: paused).first else {
            Issue.record("the first claim was lost")
            return
        }
        #expect(try store.takeOver("paused", by: live) == nil, "a daemon whose lease has not expired is not taken over")
        let before = try #require(try store.daemons().first { $0.id == "paused" })
        #expect(before.isAlive && before.epoch == paused.epoch && before.host == "test-host")
        #expect(before.running == 1 && before.claimedLastMinute == 1)
        place.expireShortLeases()
        #expect(try store.expiredDaemons(now: live).map(\.id) == ["paused"])
        let taken = try #require(try store.takeOver("paused", by: live))
        #expect(taken.map(\.id) == [claim.id])
        #expect(try store.takeOver("paused", by: live) == nil, "a daemon is taken over once")
        #expect(try store.expiredDaemons(now: live).isEmpty)
        let settled = try #require(try store.daemons().first { $0.id == "paused" })
        #expect(!settled.isAlive && settled.settledBy == "live" && settled.settledAt != nil)

        #expect(throws: LeaseLost.self) { try store.claim([.test("report.yaml", 101)], lease: paused) }
        #expect(try store.start(claim.id!, runID: "r2", attempt: 2, firstStartedAt: Date(), lease: paused) == false)
        #expect(try store.finish([.test(claim.id!, .succeeded)], lease: paused) == 0)
        #expect(try store.renew(paused) == nil)
        try store.markInterrupted(taken.compactMap(\.id), note: "interrupted: taken over", at: Date())
        #expect(try store.claims(of: "report.yaml").first?.status == .interrupted)

        let again = try store.register(.test("paused"))
        #expect(again.epoch > paused.epoch)
        #expect(try store.claim([.test("report.yaml", 101)], lease: again).first?.claim?.status == .running)
        #expect(try store.daemons().first { $0.id == "paused" }?.isAlive == true)
    }

    /// Three daemons taking over one expired daemon at once: one of them gets its claims.
    func takeOverOnce() throws {
        let store = try place.store()
        let dead = try store.register(.test("dead", lease: place.shortLease))
        let claimed = try store.claim((0..<5).map { ClaimRequest.test("job-\($0).yaml", 100) }, lease: dead).compactMap(\.claim)
        #expect(claimed.count == 5)
        let leases = try (0..<3).map { try place.store().register(.test("taker-\($0)")) }
        place.expireShortLeases()
        let takings = Locked<[[Claim]?]>([])
        let failures = Locked<[String]>([])
        let ready = Barrier(count: 3)
        try runToEnd(
            leases.map { lease -> @Sendable () -> Void in
                {
                    do {
                        let store = try place.store()
                        ready.arrive()
                        let taken = try store.takeOver("dead", by: lease)
                        takings.withLock { $0.append(taken) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            })
        #expect(failures.value.isEmpty)
        let winners = takings.value.compactMap { $0 }
        #expect(winners.count == 1)
        #expect(winners.first?.compactMap(\.id).sorted() == claimed.compactMap(\.id).sorted())
    }

    /// overlap: skip, queue and replace hold across two daemons' runs.
    func globalOverlap() throws {
        let first = try place.store()
        let second = try place.store()
        let a = try first.register(.test("a"))
        let b = try second.register(.test("b"))

        let skipRunning = try #require(try first.claim([.test("skip.yaml", 100, overlap: .skip)], lease: a).first?.claim)
        #expect(skipRunning.status == .running)
        let skipped = try #require(try second.claim([.test("skip.yaml", 101, overlap: .skip)], lease: b).first?.claim)
        #expect(skipped.status == .skipped)
        #expect(skipped.note?.contains("overlap: skip") == true)

        let queueRunning = try #require(try first.claim([.test("queue.yaml", 100, overlap: .queue)], lease: a).first?.claim)
        let queued = try #require(try second.claim([.test("queue.yaml", 101, overlap: .queue)], lease: b).first?.claim)
        #expect(queued.status == .queued)
        #expect(try second.promote(queued.id!, lease: b) == false, "the other daemon's run still runs")
        #expect(try first.finish([.test(queueRunning.id!, .succeeded)], lease: a) == 1)
        #expect(try second.promote(queued.id!, lease: b) == true)
        #expect(try second.claims(of: "queue.yaml").first?.status == .running)

        let replaceRunning = try #require(try first.claim([.test("replace.yaml", 100, overlap: .replace)], lease: a).first?.claim)
        let replaceQueued = try #require(
            try first.claim([.test("replace.yaml", 101, overlap: .replace, sequential: true)], lease: a).first?.claim)
        #expect(replaceQueued.status == .queued)
        guard case .claimed(let replacing, let replaced) = try second.claim([.test("replace.yaml", 102, overlap: .replace)], lease: b).first
        else {
            Issue.record("the replacing claim was lost")
            return
        }
        #expect(replacing.status == .running)
        #expect(replaced.map(\.id) == [replaceRunning.id, replaceQueued.id])
        #expect(replaced.map(\.status) == [.running, .cancelled])
        let cancellations = try first.cancellations(for: a)
        #expect(cancellations.stop == [replaceRunning.id!])
        #expect(cancellations.dropped == [replaceQueued.id!])
        let later = try first.cancellations(for: a)
        #expect(later.stop == [replaceRunning.id!], "a run asked to stop is reported until it ends")
        #expect(later.dropped.isEmpty, "a dropped claim is reported once")
        #expect(try second.cancellations(for: b).stop.isEmpty)
        #expect(try first.finish([.test(replaceRunning.id!, .cancelled)], lease: a) == 1)
        #expect(try first.cancellations(for: a).stop.isEmpty)
    }

    /// The claims of a window of due times come earliest first, with when each run started.
    func claimsInWindow() throws {
        let store = try place.store()
        let lease = try store.register(.test("claimer"))
        let results = try store.claim(
            [.test("a.yaml", 1_000), .test("b.yaml", 1_000), .test("a.yaml", 1_010), .test("b.yaml", 1_020), .test("a.yaml", 1_030)],
            lease: lease)
        let claims = results.compactMap(\.claim)
        try #require(claims.count == 5)
        let started = Date(timeIntervalSince1970: 1_010.75)
        let late = try #require(claims.first { $0.automationKey == "a.yaml" && $0.dueTime == 1_010 })
        #expect(try store.start(late.id!, runID: "late-run", attempt: 1, firstStartedAt: started, lease: lease))
        let window = try store.claims(dueFrom: Date(timeIntervalSince1970: 1_000), to: Date(timeIntervalSince1970: 1_030))
        #expect(window.map(\.dueTime) == [1_000, 1_000, 1_010, 1_020], "the end is left out, the start kept")
        #expect(Set(window.prefix(2).map(\.automationKey)) == ["a.yaml", "b.yaml"])
        let found = try #require(window.first { $0.dueTime == 1_010 })
        #expect(found.runID == "late-run")
        #expect(abs((found.startedAt ?? 0) - 1_010.75) < 0.001)
        #expect(window.filter { $0.dueTime != 1_010 }.allSatisfy { $0.startedAt == nil })
        let limited = try store.claims(dueFrom: Date(timeIntervalSince1970: 999.5), to: Date(timeIntervalSince1970: 2_000), limit: 2)
        #expect(limited.map(\.dueTime) == [1_020, 1_030], "beyond the limit the latest due times are kept")
        #expect(try store.claims(dueFrom: Date(timeIntervalSince1970: 1_031), to: Date(timeIntervalSince1970: 2_000)).isEmpty)
        // A day of claims of every automation is read by due time through an index, not a scan.
        let indexed = try store.state.read { connection in
            switch connection.dialect {
            case .sqlite:
                try connection.rows("EXPLAIN QUERY PLAN SELECT * FROM claim WHERE dueTime >= 1 AND dueTime < 2 ORDER BY dueTime DESC", [])
                    .contains { $0.text("detail")?.contains("USING INDEX claim_due") == true }
            case .postgres:
                try !connection.rows("SELECT indexname FROM pg_indexes WHERE tablename = 'claim' AND indexdef LIKE '%(duetime)'", []).isEmpty
            }
        }
        #expect(indexed)
    }

    /// A queued claim is promoted only when no run of its automation goes and no earlier due time waits.
    func promotions() throws {
        let store = try place.store()
        let a = try store.register(.test("a"))
        let b = try place.store().register(.test("b"))
        let running = try #require(try store.claim([.test("q.yaml", 100, overlap: .queue)], lease: a).first?.claim)
        let earlier = try #require(try store.claim([.test("q.yaml", 101, overlap: .queue)], lease: b).first?.claim)
        let later = try #require(try store.claim([.test("q.yaml", 102, overlap: .queue)], lease: a).first?.claim)
        #expect([earlier.status, later.status] == [.queued, .queued])
        #expect(try store.finish([.test(running.id!, .succeeded)], lease: a) == 1)
        #expect(try store.promote(later.id!, lease: a) == false, "an earlier due time waits")
        #expect(try store.promote(earlier.id!, lease: a) == false, "not this daemon's claim")
        #expect(try store.promote(earlier.id!, lease: b) == true)
        #expect(try store.promote(earlier.id!, lease: b) == false, "promoted once")
        #expect(try store.start(earlier.id!, runID: "run-101", attempt: 1, firstStartedAt: Date(), lease: b))
        #expect(try store.finish([.test(earlier.id!, .failed)], lease: b) == 1)
        #expect(try store.promote(later.id!, lease: a) == true)
        #expect(try store.claims(of: "q.yaml").map(\.status) == [.running, .failed, .succeeded])

        // Missed due times run one after another (catchUp: all), decided in one batch.
        let catchUp = try store.claim(
            [.test("seq.yaml", 12, sequential: true), .test("seq.yaml", 10, sequential: true), .test("seq.yaml", 11, sequential: true)], lease: a)
        #expect(catchUp.map { $0.claim?.status } == [.queued, .running, .queued])
    }

    /// Three daemons taking run requests at once take each one once.
    func runRequests() throws {
        let store = try place.store()
        let requests = try (0..<30).map { index in
            try store.enqueueRun(automationKey: "job-\(index % 3).yaml", inputs: #"{"n": \#(index)}"#, trigger: "manual")
        }
        _ = try store.enqueueRun(automationKey: "elsewhere.yaml", inputs: nil, trigger: "manual")
        let taken = Locked<[RunRequest]>([])
        let failures = Locked<[String]>([])
        let threads = (0..<3).map { index -> @Sendable () -> Void in
            {
                do {
                    let store = try place.store()
                    let lease = try store.register(.test("taker-\(index)"))
                    while true {
                        let batch = try store.takeRunRequests(keys: ["job-0.yaml", "job-1.yaml", "job-2.yaml"], limit: 2, lease: lease)
                        if batch.isEmpty { break }
                        taken.withLock { $0 += batch }
                        for request in batch {
                            try store.completeRunRequest(
                                id: request.id, status: .succeeded, runID: request.runID, output: "\(request.id)", error: nil)
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        try runToEnd(threads)
        #expect(failures.value.isEmpty)
        #expect(taken.value.map(\.id).sorted() == requests.map(\.id))
        #expect(Set(taken.value.compactMap(\.runID)).count == requests.count)
        let done = try #require(try store.runRequest(id: requests[7].id))
        #expect(done.status == .succeeded)
        #expect(done.output == "\(requests[7].id)")
        #expect(done.inputs == #"{"n": 7}"#)
        #expect(done.daemonID?.hasPrefix("taker-") == true)
    }

    /// Run requests taken by a daemon that is taken over become interrupted.
    func runRequestsOfTakenOverDaemon() throws {
        let store = try place.store()
        let request = try store.enqueueRun(automationKey: "job.yaml", inputs: nil, trigger: "manual")
        let dying = try store.register(.test("dying", lease: place.shortLease))
        let live = try store.register(.test("live"))
        #expect(try store.takeRunRequests(keys: ["job.yaml"], limit: 5, lease: dying).map(\.id) == [request.id])
        place.expireShortLeases()
        #expect(try store.takeOver("dying", by: live)?.isEmpty == true)
        #expect(try store.runRequest(id: request.id)?.status == .interrupted)
        try store.completeRunRequest(id: request.id, status: .succeeded, runID: nil, output: nil, error: nil)
        #expect(try store.runRequest(id: request.id)?.status == .interrupted, "a late ending is dropped")
    }

    /// A claim retried after an uncertain commit is adopted by its daemon, and lost to others.
    func uncertainCommitAdoption() throws {
        let store = try place.store()
        let a = try store.register(.test("a"))
        let b = try place.store().register(.test("b"))
        let request = ClaimRequest.test("adopt.yaml", 100)
        let first = try #require(try store.claim([request], lease: a).first?.claim)
        let retried = try #require(try store.claim([request], lease: a).first?.claim, "the daemon's own claim counts as claimed")
        #expect(retried.id == first.id)
        #expect(retried.status == .running)
        #expect(try store.claim([request], lease: b).first?.claim == nil)
        let renewedA = try store.register(.test("a"))
        #expect(try store.claim([request], lease: renewedA).first?.claim == nil, "a claim of a former epoch is not adopted")
        #expect(try store.claims(of: "adopt.yaml").map(\.status) == [.interrupted], "registering again interrupts the former epoch's claims")
    }

    /// Leases expire by the database's clock, and a renewal before a takeover keeps the daemon.
    func expiry() throws {
        let store = try place.store()
        let before = Date()
        let short = try store.register(.test("short", lease: place.shortLease))
        let after = Date()
        let watcher = try store.register(.test("watcher"))
        #expect(abs(short.expiresAt.timeIntervalSince(short.databaseNow) - place.shortLease.timeInterval) < 0.001)
        // The database's time when it registered (a manual clock's is set when the place is made).
        #expect(short.databaseNow > before.addingTimeInterval(-60) && short.databaseNow < after.addingTimeInterval(1))
        #expect(try store.expiredDaemons(now: watcher).isEmpty)
        #expect(try store.daemons().first { $0.id == "short" }?.isAlive == true)
        place.expireShortLeases()
        #expect(try store.expiredDaemons(now: watcher).map(\.id) == ["short"])
        let info = try #require(try store.daemons().first { $0.id == "short" })
        #expect(!info.isAlive)
        #expect(throws: LeaseLost.self, "an expired lease claims nothing") { try store.claim([.test("x.yaml", 1)], lease: short) }
        let renewed = try #require(try store.renew(short), "no daemon took it over, so it is renewed")
        #expect(renewed.expiresAt > short.expiresAt)
        #expect(try store.expiredDaemons(now: watcher).isEmpty)
        try store.stopped(renewed)
        #expect(try store.renew(renewed) == nil)
        #expect(try store.daemons().first { $0.id == "short" }?.stoppedAt != nil)
        #expect(try store.expiredDaemons(now: watcher).isEmpty, "a stopped daemon is not taken over")
    }

    /// Runs each piece of work on a thread of its own and waits for them all to end (two
    /// minutes at most, a bound for a broken test).
    private func runToEnd(_ works: [@Sendable () -> Void]) throws {
        let group = DispatchGroup()
        for work in works {
            group.enter()
            Thread {
                work()
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success, "the daemons finished within two minutes")
    }
}

/// Where a test's stores live: each call of ``store`` opens another store (another connection)
/// on one new, empty database.
struct StorePlace: Sendable {
    let store: @Sendable () throws -> AutomationStore
    /// A lease for a test to let expire, long enough that it never expires on its own before the
    /// test's next queries, however busy the machine.
    let shortLease: Duration
    /// Makes every short lease registered before expired on the clock the database's leases
    /// expire by.
    let expireShortLeases: @Sendable () -> Void

    /// A new SQLite file whose stores all read one manual clock, which expiring advances by
    /// twice the short lease.
    static func sqlite() throws -> StorePlace {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("automation-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("automations.sqlite").path
        // Today, so that the daemons' times read as a real daemon's would.
        let clock = ManualClock(now: Date())
        let lease = Duration.milliseconds(500)
        return StorePlace(
            store: { try AutomationStore(path: path, clock: clock) }, shortLease: lease, expireShortLeases: { clock.advance(by: lease * 2) })
    }
}

/// Threads wait at it until all have arrived, so that they go on at once.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) { waiting = count }

    func arrive() {
        condition.withLock {
            waiting -= 1
            condition.broadcast()
            let deadline = Date().addingTimeInterval(30)
            while waiting > 0, condition.wait(until: deadline) {}
        }
    }
}

/// A value shared by threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}

extension ClaimResult {
    /// The claim, unless the due time was lost.
    var claim: Claim? {
        if case .claimed(let claim, _) = self { return claim }
        return nil
    }
}

extension DaemonRegistration {
    static func test(_ id: String, lease: Duration = .seconds(30)) -> DaemonRegistration {
        DaemonRegistration(id: id, pid: Int(getpid()), host: "test-host", workflows: "/srv/Workflows", leaseDuration: lease)
    }
}

extension ClaimRequest {
    static func test(_ key: String, _ due: Int64, overlap: AutomationBlock.Overlap = .parallel, sequential: Bool = false) -> ClaimRequest {
        ClaimRequest(automationKey: key, dueTime: due, overlap: overlap, isSequentialCatchUp: sequential, runID: UUID().uuidString.lowercased())
    }
}

extension ClaimEnding {
    static func test(_ id: Int64, _ status: Claim.Status) -> ClaimEnding {
        ClaimEnding(id: id, status: status, note: nil, runID: nil, attempts: 1, startedAt: Date(), endedAt: Date())
    }
}

import Foundation
import GRDB
import Testing

@testable import AutomationKit

/// The claims table makes each due time run at most once, across store connections.
@Suite("Automation store")
struct AutomationStoreTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("automation-store-\(UUID().uuidString)")

    private func store() throws -> AutomationStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try AutomationStore(path: folder.appendingPathComponent("automations.sqlite").path)
    }

    private func claim(_ key: String, _ due: Int64, daemon: String, status: Claim.Status = .running) -> Claim {
        Claim(
            id: nil, automationKey: key, dueTime: due, status: status, runID: UUID().uuidString, daemonID: daemon,
            isCatchUp: false, attempts: 1, claimedAt: 0, startedAt: nil, endedAt: nil, note: nil)
    }

    @Test("Two connections claiming the same due times at once get each one exactly once")
    func concurrentClaims() async throws {
        let first = try store()
        let second = try store()
        let keys = (0..<20).map { "/srv/Workflows/automation-\($0).yaml" }
        let won = try await withThrowingTaskGroup(of: [Claim].self) { group in
            for (store, daemon) in [(first, "a"), (second, "b")] {
                group.addTask {
                    var won: [Claim] = []
                    for due in Int64(1_000)..<1_050 {
                        won += try store.insert(keys.map { self.claim($0, due, daemon: daemon) }).compactMap { $0 }
                    }
                    return won
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(won.count == keys.count * 50)
        #expect(Set(won.map { "\($0.automationKey) \($0.dueTime)" }).count == won.count)
        let stored = try await first.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM claim") }
        #expect(stored == won.count)
    }

    @Test("Connections opening a new file at once all find it migrated")
    func concurrentMigration() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("new.sqlite").path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try AutomationStore(path: path) }
            }
            try await group.waitForAll()
        }
    }

    @Test("Catch-up starts from the latest claimed due time, or from when the schedule was first seen")
    func cursors() throws {
        let store = try store()
        let key = "/srv/Workflows/report.yaml"
        let monday = Date(timeIntervalSince1970: 1_000_000)
        func cursor(_ definition: String, enabled: Bool = true, at now: Date) throws -> Date? {
            try store.cursors(for: [.init(key: key, definition: definition, isEnabled: enabled)], now: now)[key]
        }
        #expect(try cursor("0 9 * * * UTC", at: monday) == monday)
        #expect(try cursor("0 9 * * * UTC", at: monday.addingTimeInterval(500)) == monday)
        _ = try store.insert([claim(key, 1_000_100, daemon: "a", status: .succeeded)])
        #expect(try cursor("0 9 * * * UTC", at: monday.addingTimeInterval(600)) == Date(timeIntervalSince1970: 1_000_100))
        // A new schedule does not catch up with the old schedule's times; neither does re-enabling.
        #expect(try cursor("0 10 * * * UTC", at: monday.addingTimeInterval(700)) == Date(timeIntervalSince1970: 1_000_700))
        #expect(try cursor("0 10 * * * UTC", enabled: false, at: monday.addingTimeInterval(800)) == nil)
        #expect(try cursor("0 10 * * * UTC", at: monday.addingTimeInterval(900)) == Date(timeIntervalSince1970: 1_000_800))
    }

    @Test("A file written before leases keeps its claims and daemons, and gains the new columns and tables")
    func migratesOlderFiles() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("older.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try AutomationStore.migrator.migrate(queue, upTo: "v1: automations, claims, daemons")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO claim (automationKey, dueTime, status, runID, daemonID, isCatchUp, attempts, claimedAt)
                    VALUES ('/srv/Workflows/report.yaml', 100, 'succeeded', 'run-1', 'old-daemon', 0, 1, 100)
                    """)
            let now = Date().timeIntervalSince1970
            try db.execute(
                sql: "INSERT INTO daemon (id, pid, host, workflows, startedAt, stoppedAt) VALUES ('old-daemon', 7, 'h', '/srv', ?, ?)",
                arguments: [now - 10, now - 5])
        }
        try queue.close()
        let store = try AutomationStore(path: path)
        let claim = try #require(try store.claims(of: "/srv/Workflows/report.yaml").first)
        #expect(claim.status == .succeeded && claim.epoch == 0 && !claim.isCancelRequested)
        #expect(try store.daemons().first { $0.id == "old-daemon" }?.pid == 7)
        #expect(try store.enqueueRun(automationKey: "report.yaml", inputs: nil, trigger: "manual").status == .queued)
    }

    @Test("Pruning keeps recent and pending claims and each automation's latest")
    func prune() throws {
        let store = try store()
        let now = Date(timeIntervalSince1970: 10_000_000)
        let old = Int64(now.timeIntervalSince1970 - AutomationStore.retention) - 10
        _ = try store.insert([
            claim("a", old - 2, daemon: "x", status: .succeeded),
            claim("a", old - 1, daemon: "x", status: .running),
            claim("a", old, daemon: "x", status: .skipped),
            claim("a", old + 20, daemon: "x", status: .succeeded),
            claim("b", old, daemon: "x", status: .missed)
        ])
        try store.prune(now: now)
        let left = try store.database.read { try Claim.order(Column("id")).fetchAll($0) }
        #expect(left.map(\.automationKey) == ["a", "a", "b"])
        #expect(left.map(\.dueTime) == [old - 1, old + 20, old])
    }

    @Test("A daemon's lock file tells a live owner from a dead one")
    func locks() throws {
        let locks = folder.appendingPathComponent("daemons")
        let live = try DaemonLock(folder: locks, daemonID: "live")
        #expect(!DaemonLock.isDead(daemonID: "live", folder: locks))
        #expect(throws: AutomationError.self) { try DaemonLock(folder: locks, daemonID: "live") }
        #expect(!DaemonLock.isDead(daemonID: "live", folder: locks), "a failed second lock leaves the live one alone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locks.path) == ["live.lock"])
        live.release()
        #expect(DaemonLock.isDead(daemonID: "live", folder: locks))
        // A file nobody holds: its owner died without removing it.
        _ = FileManager.default.createFile(atPath: locks.appendingPathComponent("crashed.lock").path, contents: nil)
        #expect(DaemonLock.isDead(daemonID: "crashed", folder: locks))
        #expect(!FileManager.default.fileExists(atPath: locks.appendingPathComponent("crashed.lock").path))
    }
}

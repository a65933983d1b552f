import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import WorkflowKit

/// The daemon's state in `$SHORTCUTS_HOME/automations.sqlite`: which due times were claimed
/// (and how their runs ended), since when each automation is scheduled, and which daemons ran.
///
/// Runs themselves, with their traces, are in the run history (`runs.sqlite`); a ``Claim``
/// links to its run by id. Several daemons may share the file, opened through `SQLiteStorage`:
/// every write is one immediate transaction, and a writer waits up to five seconds for another's.
///
/// Claims are committed to the disk before their runs start (`synchronous = FULL` for that
/// transaction), so that even a power cut cannot make a due time run twice; the other writes
/// (how runs ended) do not wait for the disk (`synchronous = NORMAL` in WAL mode), which is
/// safe against processes killed at any moment.
///
/// ```swift
/// let store = try AutomationStore.shared()
/// let latest = try store.latestClaims(for: folder.automations.map(\.key))
/// for automation in folder.automations {
///     print(automation.name, latest[automation.key]?.status.rawValue ?? "never ran")
/// }
/// ```
public final class AutomationStore: Sendable {
    let database: any DatabaseWriter

    /// How long finished claims are kept: a day. The latest claim of each automation is
    /// always kept, since catch-up starts from it.
    static let retention: TimeInterval = 86_400

    /// The store in the current `$SHORTCUTS_HOME`.
    ///
    /// ```swift
    /// let store = try AutomationStore.shared()
    /// ```
    ///
    /// - Returns: The store, created and migrated on first use.
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened or migrated.
    public static func shared() throws -> AutomationStore {
        try AutomationStore(path: try ShortcutsHome.file(named: "automations.sqlite").path)
    }

    /// Opens (creating or migrating) a store.
    ///
    /// ```swift
    /// let store = try AutomationStore(path: "/tmp/automations.sqlite")
    /// ```
    ///
    /// - Parameter path: The SQLite file.
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened or migrated.
    public init(path: String) throws {
        database = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: automations, claims, daemons") { db in
            try db.create(table: "automation") { table in
                table.primaryKey("key", .text)
                table.column("definition", .text).notNull()
                table.column("since", .double).notNull()
            }
            try db.create(table: "claim") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("automationKey", .text).notNull()
                table.column("dueTime", .integer).notNull()
                table.column("status", .text).notNull()
                table.column("runID", .text)
                table.column("daemonID", .text).notNull()
                table.column("isCatchUp", .boolean).notNull()
                table.column("attempts", .integer).notNull()
                table.column("claimedAt", .double).notNull()
                table.column("startedAt", .double)
                table.column("endedAt", .double)
                table.column("note", .text)
                table.uniqueKey(["automationKey", "dueTime"])
            }
            try db.execute(sql: "CREATE INDEX claim_pending ON claim(daemonID) WHERE status IN ('queued', 'running')")
            try db.create(table: "daemon") { table in
                table.primaryKey("id", .text)
                table.column("pid", .integer).notNull()
                table.column("host", .text).notNull()
                table.column("workflows", .text).notNull()
                table.column("startedAt", .double).notNull()
                table.column("stoppedAt", .double)
            }
        }
        return migrator
    }

    // MARK: Reading

    /// The most recent claim of each automation.
    ///
    /// ```swift
    /// let latest = try store.latestClaims(for: [automation.key])[automation.key]
    /// ```
    ///
    /// - Parameter keys: The automations' keys.
    /// - Returns: The latest claim by key; automations never claimed are absent.
    public func latestClaims(for keys: [String]) throws -> [String: Claim] {
        try database.read { db in
            var latest: [String: Claim] = [:]
            let statement = try db.cachedStatement(sql: "SELECT * FROM claim WHERE automationKey = ? ORDER BY dueTime DESC LIMIT 1")
            for key in keys {
                latest[key] = try Claim.fetchOne(statement, arguments: [key])
            }
            return latest
        }
    }

    /// The claims of one automation, most recent due time first.
    ///
    /// ```swift
    /// for claim in try store.claims(of: automation.key, limit: 10) { print(claim.dueDate, claim.status) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The automation's key.
    ///   - limit: How many claims at most.
    /// - Returns: The claims.
    public func claims(of key: String, limit: Int = 20) throws -> [Claim] {
        try database.read { db in
            try Claim.filter(Claim.CodingKeys.automationKey == key).order(Claim.CodingKeys.dueTime.desc).limit(limit).fetchAll(db)
        }
    }

    // MARK: Daemons

    func registerDaemon(id: String, workflows: String, now: Date) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO daemon (id, pid, host, workflows, startedAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, Int(getpid()), ProcessInfo.processInfo.hostName, workflows, now.timeIntervalSince1970])
        }
    }

    func daemonStopped(id: String, now: Date) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE daemon SET stoppedAt = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, id])
        }
    }

    /// The pid a daemon had, for messages.
    func pid(ofDaemon id: String) throws -> Int? {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT pid FROM daemon WHERE id = ?", arguments: [id]) }
    }

    // MARK: Scheduling

    /// What the store knows of an automation when the daemon starts scheduling it.
    struct Schedulable {
        var key: String
        var definition: String
        var isEnabled: Bool
    }

    /// Records the automations being scheduled and returns, for each enabled one, the instant
    /// after which its due times are the daemon's business: the latest claimed due time, or
    /// when the automation was first seen with its current schedule (and enabled).
    ///
    /// A new automation, one whose schedule or time zone changed, and a disabled one start
    /// from `now`, so catch-up never covers times of another schedule or of a disabled period.
    func cursors(for automations: [Schedulable], now: Date) throws -> [String: Date] {
        try database.write { db in
            var cursors: [String: Date] = [:]
            let find = try db.cachedStatement(sql: "SELECT definition, since FROM automation WHERE key = ?")
            let latest = try db.cachedStatement(sql: "SELECT max(dueTime) FROM claim WHERE automationKey = ?")
            for automation in automations {
                var since = now.timeIntervalSince1970
                if let row = try Row.fetchOne(find, arguments: [automation.key]) {
                    if row["definition"] == automation.definition && automation.isEnabled {
                        since = row["since"]
                    } else {
                        try db.execute(
                            sql: "UPDATE automation SET definition = ?, since = ? WHERE key = ?",
                            arguments: [automation.definition, since, automation.key])
                    }
                } else {
                    try db.execute(
                        sql: "INSERT INTO automation (key, definition, since) VALUES (?, ?, ?)",
                        arguments: [automation.key, automation.definition, since])
                }
                guard automation.isEnabled else { continue }
                let lastDue = try Int64.fetchOne(latest, arguments: [automation.key]).map { Double($0) } ?? -.infinity
                cursors[automation.key] = Date(timeIntervalSince1970: max(since, lastDue))
            }
            return cursors
        }
    }

    /// Inserts claims in one transaction; a claim whose (automation, due time) already exists
    /// is not inserted.
    ///
    /// - Returns: For each claim in order, the inserted claim (with its id), or `nil` when
    ///   another claim of that due time was there first.
    func insert(_ claims: [Claim]) throws -> [Claim?] {
        guard !claims.isEmpty else { return [] }
        return try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
            var inserted: [Claim?] = []
            try db.inTransaction(.immediate) {
                inserted = try Self.insert(claims, in: db)
                return .commit
            }
            return inserted
        }
    }

    private static func insert(_ claims: [Claim], in db: Database) throws -> [Claim?] {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO claim (automationKey, dueTime, status, runID, daemonID, isCatchUp, attempts, claimedAt, startedAt, note)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (automationKey, dueTime) DO NOTHING
                """)
        let claimedAt = Date().timeIntervalSince1970
        return try claims.map { claim -> Claim? in
            var claim = claim
            claim.claimedAt = claimedAt
            try statement.execute(arguments: [
                claim.automationKey, claim.dueTime, claim.status.rawValue, claim.runID, claim.daemonID,
                claim.isCatchUp, claim.attempts, claim.claimedAt, claim.startedAt, claim.note
            ])
            guard db.changesCount == 1 else { return nil }
            claim.id = db.lastInsertedRowID
            return claim
        }
    }

    /// Records that a claim's run (or another attempt of it) started, and when the first attempt did.
    func started(_ id: Int64, runID: String, attempt: Int, firstStartedAt date: Date) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE claim SET status = 'running', runID = ?, attempts = ?, startedAt = coalesce(startedAt, ?) WHERE id = ?
                    """, arguments: [runID, attempt, date.timeIntervalSince1970, id])
        }
    }

    /// Records how claims ended, in one transaction: each claim's status, its last attempt's
    /// run and when its first attempt started; a note is added to the claim's note (a catch-up
    /// run that was cancelled says both).
    func finish(_ endings: [ClaimEnding]) throws {
        guard !endings.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE claim SET status = ?1, note = CASE WHEN ?2 IS NULL THEN note WHEN note IS NULL THEN ?2 ELSE note || '; ' || ?2 END,
                                     runID = coalesce(?3, runID), attempts = ?4, startedAt = coalesce(startedAt, ?5), endedAt = ?6
                    WHERE id = ?7
                    """)
            for ending in endings {
                try statement.execute(arguments: [
                    ending.status.rawValue, ending.note, ending.runID, ending.attempts,
                    ending.startedAt?.timeIntervalSince1970, ending.endedAt.timeIntervalSince1970, ending.id
                ])
            }
        }
    }

    // MARK: Recovery

    /// The claims still queued or running that other daemons own.
    func pendingClaims(notOwnedBy daemonID: String) throws -> [Claim] {
        try database.read { db in
            try Claim.fetchAll(
                db, sql: "SELECT * FROM claim WHERE status IN ('queued', 'running') AND daemonID != ?",
                arguments: [daemonID])
        }
    }

    /// Marks claims that are still pending as interrupted.
    func markInterrupted(_ ids: [Int64], note: String, at date: Date) throws {
        try database.write { db in
            for id in ids {
                try db.execute(
                    sql: """
                        UPDATE claim SET status = 'interrupted', note = ?, endedAt = ? WHERE id = ? AND status IN ('queued', 'running')
                        """, arguments: [note, date.timeIntervalSince1970, id])
            }
        }
    }

    /// Deletes finished claims older than ``retention``, keeping each automation's latest.
    func prune(now: Date) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM claim
                    WHERE dueTime < ? AND status NOT IN ('queued', 'running')
                      AND dueTime < (SELECT max(latest.dueTime) FROM claim AS latest WHERE latest.automationKey = claim.automationKey)
                    """, arguments: [Int64(now.timeIntervalSince1970 - Self.retention)])
        }
    }
}

import Foundation
import GRDB
import SQLiteStorage

extension RunHistory {
    /// Settles as ``Status/interrupted`` the manual runs still `running` whose process died
    /// (`kill -9`, a crash, a power cut).
    ///
    /// Called whenever the history is opened for writing. Runs without a recorded process
    /// (an automation daemon's) are left to their daemon.
    ///
    /// ```swift
    /// let settled = try history.settleAbandonedRuns()
    /// ```
    ///
    /// - Parameter now: The time recorded as their end.
    /// - Returns: How many runs were settled.
    @discardableResult
    public func settleAbandonedRuns(now: Date = Date()) throws -> Int {
        try SQLiteStorageError.naming(path) {
            let running = try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, ownerPID, ownerStartTime FROM run WHERE status = 'running' AND ownerPID IS NOT NULL
                        """)
            }
            let dead = running.compactMap { row -> (id: String, pid: Int32)? in
                let owner = RunOwner(pid: row["ownerPID"], startTime: row["ownerStartTime"] ?? 0)
                return owner.isAlive ? nil : (row["id"], owner.pid)
            }
            guard !dead.isEmpty else { return 0 }
            return try database.write { db in
                var settled = 0
                for run in dead {
                    try db.execute(
                        sql: """
                            UPDATE run SET status = 'interrupted', error = ?, endedAt = ? WHERE id = ? AND status = 'running'
                            """, arguments: [Self.interruptedMessage(pid: run.pid), now.timeIntervalSince1970, run.id])
                    settled += db.changesCount
                }
                return settled
            }
        }
    }

    /// Deletes the runs (and their steps) that started before a date and are no longer running.
    ///
    /// ```swift
    /// let deleted = try history.prune(olderThan: Date().addingTimeInterval(-30 * 86_400))
    /// ```
    ///
    /// - Parameter date: The oldest start time kept.
    /// - Returns: How many runs were deleted.
    @discardableResult
    public func prune(olderThan date: Date) throws -> Int {
        try SQLiteStorageError.naming(path) {
            try database.write { db in
                try db.execute(sql: "DELETE FROM run WHERE startedAt < ? AND status <> 'running'", arguments: [date.timeIntervalSince1970])
                return db.changesCount
            }
        }
    }

    /// Deletes the runs older than ``retention``, at most once per ``pruningInterval``.
    ///
    /// - Parameter now: The current time.
    /// - Returns: How many runs were deleted.
    @discardableResult
    func applyRetention(now: Date) throws -> Int {
        try SQLiteStorageError.naming(path) {
            let last = try database.read { db in
                try Double.fetchOne(db, sql: "SELECT lastDoneAt FROM maintenance WHERE task = 'retention'")
            }
            if let last, now.timeIntervalSince1970 - last < Self.pruningInterval, last <= now.timeIntervalSince1970 { return 0 }
            return try database.write { db in
                // Another process may have pruned since the read above; the write lock is held now.
                let last = try Double.fetchOne(db, sql: "SELECT lastDoneAt FROM maintenance WHERE task = 'retention'")
                if let last, now.timeIntervalSince1970 - last < Self.pruningInterval, last <= now.timeIntervalSince1970 { return 0 }
                try db.execute(
                    sql: "DELETE FROM run WHERE startedAt < ? AND status <> 'running'",
                    arguments: [now.timeIntervalSince1970 - Self.retention])
                let deleted = db.changesCount
                try db.execute(
                    sql: "INSERT OR REPLACE INTO maintenance (task, lastDoneAt) VALUES ('retention', ?)",
                    arguments: [now.timeIntervalSince1970])
                return deleted
            }
        }
    }
}

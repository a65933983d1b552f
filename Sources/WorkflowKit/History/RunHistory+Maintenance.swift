import Foundation
import StateStorage

extension RunHistory {
    /// Settles as ``Status/interrupted`` the manual runs of this host still `running` whose
    /// process died (`kill -9`, a crash, a power cut).
    ///
    /// Called whenever the history is opened for writing. Runs without a recorded process
    /// (an automation daemon's) are left to their daemon, and runs recorded on another host
    /// to the processes of that host.
    ///
    /// ```swift
    /// let settled = try history.settleAbandonedRuns()
    /// ```
    ///
    /// - Parameter now: The time recorded as their end; the history's clock's by default.
    /// - Returns: How many runs were settled.
    @discardableResult
    public func settleAbandonedRuns(now: Date? = nil) throws -> Int {
        let now = now ?? clock.now()
        let running = try database.read { connection in
            try connection.rows(
                """
                SELECT id, trigger, ownerPID, ownerStartTime, ownerHost FROM run
                WHERE status = 'running' AND ownerPID IS NOT NULL AND (ownerHost IS NULL OR ownerHost = ?)
                """, [.text(host)])
        }
        let dead = running.compactMap { row -> (id: String, pid: Int32, trigger: String)? in
            guard let owner = owner(row), !owner.isAlive, let id = row.text("id") else { return nil }
            return (id, owner.pid, row.text("trigger") ?? "")
        }
        guard !dead.isEmpty else { return 0 }
        let settled = try database.write { connection in
            var settled: [String] = []
            for run in dead {
                let changed = try connection.execute(
                    "UPDATE run SET status = 'interrupted', error = ?, endedAt = ? WHERE id = ? AND status = 'running'",
                    [.text(Self.interruptedMessage(pid: run.pid)), .date(now), .text(run.id)])
                if changed > 0 { settled.append(run.trigger) }
            }
            return settled
        }
        for trigger in settled { metrics.recordEnded(.interrupted, trigger: trigger) }
        return settled.count
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
        try database.write { connection in
            try connection.execute("DELETE FROM run WHERE startedAt < ? AND status <> 'running'", [.date(date)])
        }
    }

    /// Deletes the runs older than ``retention``, at most once per ``pruningInterval``.
    ///
    /// - Parameter now: The current time.
    /// - Returns: How many runs were deleted.
    @discardableResult
    func applyRetention(now: Date) throws -> Int {
        func isDue(_ connection: any StateConnection, locking: Bool) throws -> Bool {
            let sql = "SELECT lastDoneAt FROM maintenance WHERE task = 'retention'" + (locking ? connection.dialect.lockRows : "")
            guard let last = try connection.row(sql, [])?.real("lastDoneAt") else { return true }
            return now.timeIntervalSince1970 - last >= Self.pruningInterval || last > now.timeIntervalSince1970
        }
        guard try database.read({ try isDue($0, locking: false) }) else { return 0 }
        return try database.write { connection in
            // Another process may have pruned since the read above; its row is locked now.
            guard try isDue(connection, locking: true) else { return 0 }
            let deleted = try connection.execute(
                "DELETE FROM run WHERE startedAt < ? AND status <> 'running'", [.real(now.timeIntervalSince1970 - Self.retention)])
            try connection.execute(
                """
                INSERT INTO maintenance (task, lastDoneAt) VALUES ('retention', ?)
                ON CONFLICT (task) DO UPDATE SET lastDoneAt = excluded.lastDoneAt
                """, [.date(now)])
            return deleted
        }
    }
}

import Foundation
import StateStorage

/// The writes of a daemon that finds other daemons by their lock files (`DaemonLock`) rather
/// than by leases: claims without a lease, decided by the daemon for its own runs.
extension AutomationStore {
    func registerDaemon(id: String, workflows: String, now: Date) throws {
        try state.write { connection in
            try connection.execute(
                "INSERT INTO daemon (id, pid, host, workflows, startedAt) VALUES (?, ?, ?, ?, ?)",
                [.text(id), .integer(Int64(getpid())), .text(ProcessInfo.processInfo.hostName), .text(workflows), .date(now)])
        }
    }

    func daemonStopped(id: String, now: Date) throws {
        try state.write { connection in
            try connection.execute("UPDATE daemon SET stoppedAt = ? WHERE id = ?", [.date(now), .text(id)])
        }
    }

    /// The pid a daemon had, for messages.
    func pid(ofDaemon id: String) throws -> Int? {
        try state.read { connection in try connection.row("SELECT pid FROM daemon WHERE id = ?", [.text(id)])?.int("pid") }
    }

    /// Inserts claims in one durable transaction; a claim whose (automation, due time) already
    /// exists is not inserted.
    ///
    /// - Returns: For each claim in order, the inserted claim (with its id), or `nil` when
    ///   another claim of that due time was there first.
    func insert(_ claims: [Claim]) throws -> [Claim?] {
        guard !claims.isEmpty else { return [] }
        let claimedAt = Date().timeIntervalSince1970
        return try state.write(durable: true) { connection in
            try claims.map { claim -> Claim? in
                var claim = claim
                claim.claimedAt = claimedAt
                let row = try connection.row(
                    """
                    INSERT INTO claim (automationKey, dueTime, status, runID, daemonID, epoch, isCatchUp, attempts, claimedAt, startedAt, note)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (automationKey, dueTime) DO NOTHING
                    RETURNING id
                    """,
                    [
                        .text(claim.automationKey), .integer(claim.dueTime), .text(claim.status.rawValue), .optional(claim.runID),
                        .text(claim.daemonID), .integer(claim.epoch), .bool(claim.isCatchUp), .integer(Int64(claim.attempts)),
                        .real(claimedAt), .optional(claim.startedAt), .optional(claim.note)
                    ])
                guard let id = row?.integer("id") else { return nil }
                claim.id = id
                return claim
            }
        }
    }

    /// Records that a claim's run (or another attempt of it) started, and when the first attempt did.
    func started(_ id: Int64, runID: String, attempt: Int, firstStartedAt date: Date) throws {
        try state.write { connection in
            try connection.execute(
                "UPDATE claim SET status = 'running', runID = ?, attempts = ?, startedAt = coalesce(startedAt, ?) WHERE id = ?",
                [.text(runID), .integer(Int64(attempt)), .date(date), .integer(id)])
        }
    }

    /// Records how claims ended (``settle(_:)``).
    func finish(_ endings: [ClaimEnding]) throws {
        try settle(endings)
    }

    /// The claims still queued or running that other daemons own.
    func pendingClaims(notOwnedBy daemonID: String) throws -> [Claim] {
        try state.read { connection in
            try connection.rows("SELECT * FROM claim WHERE status IN ('queued', 'running') AND daemonID != ?", [.text(daemonID)])
                .map(Claim.init(row:))
        }
    }
}

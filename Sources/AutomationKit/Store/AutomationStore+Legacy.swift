import Foundation
import StateStorage

/// Claims without a lease, decided by the caller, and the pending claims of other daemons
/// (which a daemon on a SQLite file finds dead by their lock files, `DaemonLock`).
extension AutomationStore {
    /// Inserts claims in one durable transaction; a claim whose (automation, due time) already
    /// exists is not inserted.
    ///
    /// - Returns: For each claim in order, the inserted claim (with its id), or `nil` when
    ///   another claim of that due time was there first.
    func insert(_ claims: [Claim]) throws -> [Claim?] {
        guard !claims.isEmpty else { return [] }
        let claimedAt = clock.now().timeIntervalSince1970
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

    /// The claims still queued or running that other daemons own.
    func pendingClaims(notOwnedBy daemonID: String) throws -> [Claim] {
        try state.read { connection in
            try connection.rows("SELECT * FROM claim WHERE status IN ('queued', 'running') AND daemonID != ?", [.text(daemonID)])
                .map(Claim.init(row:))
        }
    }
}

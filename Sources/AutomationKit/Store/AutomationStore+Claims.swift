import Foundation
import StateStorage

/// Claiming due times, fenced by the claiming daemon's lease, with `overlap:` decided over every
/// daemon's claims of the automation; then starting, promoting, cancelling and ending them.
extension AutomationStore {
    /// Claims due times in one durable transaction, deciding each one's fate with the
    /// automation's row locked (`SELECT … FOR UPDATE` in PostgreSQL; SQLite's write
    /// transactions are serial), so that `overlap:` holds across every daemon's runs.
    ///
    /// A due time claimed already is `.lost`, unless the claim is this daemon's own of the same
    /// epoch (a retry after a commit whose outcome was uncertain): then it is claimed. A due time
    /// that starts with `overlap: replace` asks the automation's running claims to stop
    /// (``cancellations(for:)``) and cancels its queued ones.
    ///
    /// - Parameters:
    ///   - requests: The due times, in any order.
    ///   - lease: The claiming daemon's lease.
    /// - Returns: What was decided for each request, in order.
    /// - Throws: ``LeaseLost`` when the lease is no longer valid (expired, settled by another
    ///   daemon, or superseded); `StateDatabaseError` when the database cannot be reached.
    func claim(_ requests: [ClaimRequest], lease: Lease) throws -> [ClaimResult] {
        guard !requests.isEmpty else { return [] }
        return try state.write(durable: true) { connection in
            let now = try fence(lease, in: connection)
            let keys = Set(requests.map(\.automationKey)).sorted()
            try lockAutomations(keys, now: now, in: connection)
            var batch = ClaimBatch(requests: requests, lease: lease, now: now, active: try activeClaims(of: keys, in: connection))
            // A few statements per round whatever the batch's size: round n claims the n-th due
            // time of each automation, so that each decision sees the outcome of the one before.
            for round in batch.rounds {
                try claimRound(round, of: &batch, in: connection)
            }
            return batch.results.map { $0 ?? .lost }
        }
    }

    /// Locks the automations' rows until the transaction ends (`FOR UPDATE`, in key order, so
    /// that two daemons' batches never wait on each other), creating the missing ones.
    func lockAutomations(_ keys: [String], now: Double, in connection: any StateConnection) throws {
        for chunk in Self.chunks(keys, of: 1_000) {
            let select = "SELECT key FROM automation WHERE key IN (\(Self.placeholders(chunk.count))) ORDER BY key" + connection.dialect.lockRows
            let found = Set(try connection.rows(select, chunk.map(SQLValue.text)).compactMap { $0.text("key") })
            let missing = chunk.filter { !found.contains($0) }
            guard !missing.isEmpty else { continue }
            try connection.execute(
                "INSERT INTO automation (key, definition, since) VALUES "
                    + Array(repeating: "(?, '', ?)", count: missing.count).joined(separator: ", ") + " ON CONFLICT (key) DO NOTHING",
                missing.flatMap { [SQLValue.text($0), .real(now)] })
            _ = try connection.rows(
                "SELECT key FROM automation WHERE key IN (\(Self.placeholders(missing.count))) ORDER BY key" + connection.dialect.lockRows,
                missing.map(SQLValue.text))
        }
    }

    /// How many claims of each automation run and wait, over every daemon.
    private func activeClaims(of keys: [String], in connection: any StateConnection) throws -> [String: ClaimBatch.Active] {
        var active: [String: ClaimBatch.Active] = [:]
        for chunk in Self.chunks(keys, of: 1_000) {
            let rows = try connection.rows(
                """
                SELECT automationKey, status, count(*) AS claims FROM claim
                WHERE automationKey IN (\(Self.placeholders(chunk.count))) AND status IN ('queued', 'running')
                GROUP BY automationKey, status
                """, chunk.map(SQLValue.text))
            for row in rows {
                guard let key = row.text("automationKey") else { continue }
                let count = row.int("claims") ?? 0
                if row.text("status") == "running" {
                    active[key, default: .init()].running = count
                } else {
                    active[key, default: .init()].queued = count
                }
            }
        }
        return active
    }

    /// Decides, inserts and (for `overlap: replace`) applies one due time of each automation.
    private func claimRound(_ indices: [Int], of batch: inout ClaimBatch, in connection: any StateConnection) throws {
        let decided = indices.map { batch.decide($0) }
        var inserted: [ClaimBatch.Slot: Int64] = [:]
        for chunk in Self.chunks(decided, of: 500) {
            let rows = try connection.rows(
                """
                INSERT INTO claim (automationKey, dueTime, status, runID, daemonID, epoch, isCatchUp, attempts, claimedAt, note)
                VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))
                ON CONFLICT (automationKey, dueTime) DO NOTHING
                RETURNING id, automationKey, dueTime
                """,
                chunk.flatMap { claim -> [SQLValue] in
                    [
                        .text(claim.automationKey), .integer(claim.dueTime), .text(claim.status.rawValue), .optional(claim.runID),
                        .text(claim.daemonID), .integer(claim.epoch), .bool(claim.isCatchUp), .integer(Int64(claim.attempts)),
                        .real(claim.claimedAt), .optional(claim.note)
                    ]
                })
            for row in rows {
                guard let id = row.integer("id"), let key = row.text("automationKey"), let due = row.integer("dueTime") else { continue }
                inserted[ClaimBatch.Slot(key: key, dueTime: due)] = id
            }
        }
        var conflicts: [(index: Int, claim: Claim)] = []
        for (index, claim) in zip(indices, decided) {
            guard let id = inserted[ClaimBatch.Slot(key: claim.automationKey, dueTime: claim.dueTime)] else {
                conflicts.append((index, claim))
                continue
            }
            var claim = claim
            claim.id = id
            batch.claimed(claim, at: index)
            if batch.replaces(index) {
                batch.results[index] = .claimed(claim, replaced: try replace(around: claim, now: batch.now, in: connection))
                batch.active[claim.automationKey, default: .init()].queued = 0
            }
        }
        guard !conflicts.isEmpty else { return }
        // A conflicting claim of this daemon and epoch comes from a commit whose outcome was
        // uncertain, retried: it is this daemon's.
        var mine: [ClaimBatch.Slot: Claim] = [:]
        for chunk in Self.chunks(conflicts.map(\.claim), of: 500) {
            let keys = Array(Set(chunk.map(\.automationKey)))
            let dueTimes = Array(Set(chunk.map(\.dueTime)))
            let rows = try connection.rows(
                """
                SELECT * FROM claim WHERE daemonID = ? AND epoch = ?
                  AND automationKey IN (\(Self.placeholders(keys.count))) AND dueTime IN (\(Self.placeholders(dueTimes.count)))
                """,
                [.text(batch.lease.daemonID), .integer(batch.lease.epoch)] + keys.map(SQLValue.text) + dueTimes.map(SQLValue.integer))
            for claim in rows.map(Claim.init(row:)) { mine[ClaimBatch.Slot(key: claim.automationKey, dueTime: claim.dueTime)] = claim }
        }
        for (index, claim) in conflicts {
            batch.results[index] = mine[ClaimBatch.Slot(key: claim.automationKey, dueTime: claim.dueTime)].map { .claimed($0, replaced: []) } ?? .lost
        }
    }

    /// Asks the automation's other running claims to stop and cancels its queued ones.
    ///
    /// - Returns: Those claims, as they now stand.
    private func replace(around claim: Claim, now: Double, in connection: any StateConnection) throws -> [Claim] {
        let key = SQLValue.text(claim.automationKey)
        let id = SQLValue.integer(claim.id ?? 0)
        let replaced = try connection.rows(
            "SELECT * FROM claim WHERE automationKey = ? AND status IN ('queued', 'running') AND id != ? ORDER BY dueTime", [key, id]
        ).map(Claim.init(row:))
        let reason = "replaced by the run due at \(claim.dueDate.formatted(.iso8601)) (overlap: replace)"
        try connection.execute("UPDATE claim SET cancelRequested = 1 WHERE automationKey = ? AND status = 'running' AND id != ?", [key, id])
        try connection.execute(
            """
            UPDATE claim SET status = 'cancelled', cancelRequested = 1, endedAt = ?,
                             note = CASE WHEN note IS NULL THEN ? ELSE note || '; ' || ? END
            WHERE automationKey = ? AND status = 'queued' AND id != ?
            """, [.real(now), .text(reason), .text(reason), key, id])
        return replaced.map { other in
            var other = other
            other.isCancelRequested = true
            if other.status == .queued {
                other.status = .cancelled
                other.endedAt = now
                other.note = other.note.map { "\($0); \(reason)" } ?? reason
            }
            return other
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    static func chunks<Element>(_ elements: [Element], of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: elements.count, by: size).map { elements[$0..<min($0 + size, elements.count)] }
    }

    /// Records that a claim's run (or another attempt of it) starts, and when the first attempt did.
    ///
    /// - Returns: `false` when the claim is no longer this daemon's to run: not running (settled
    ///   by another daemon, cancelled), or its lease was lost. The run must not start.
    func start(_ claimID: Int64, runID: String, attempt: Int, firstStartedAt date: Date, lease: Lease) throws -> Bool {
        try state.write { connection in
            try connection.execute(
                """
                UPDATE claim SET runID = ?, attempts = ?, startedAt = coalesce(startedAt, ?)
                WHERE id = ? AND daemonID = ? AND epoch = ? AND status = 'running' AND \(Self.holdsLease)
                """,
                [
                    .text(runID), .integer(Int64(attempt)), .date(date), .integer(claimID), .text(lease.daemonID), .integer(lease.epoch),
                    .text(lease.daemonID), .integer(lease.epoch)
                ]) == 1
        }
    }

    /// Records how claims ended, in one transaction, as ``settle(_:)`` does, but only for the
    /// claims still this daemon's (same epoch, lease not lost, still queued or running): the
    /// endings of the others (settled by another daemon meanwhile) are dropped.
    ///
    /// - Returns: How many endings were recorded.
    @discardableResult
    func finish(_ endings: [ClaimEnding], lease: Lease) throws -> Int {
        guard !endings.isEmpty else { return 0 }
        return try state.write { connection in
            try endings.reduce(0) { count, ending in
                try count
                    + connection.execute(
                        Self.finishStatement(ending) + " AND daemonID = ? AND epoch = ? AND \(Self.holdsLease)",
                        Self.values(of: ending) + [
                            .text(lease.daemonID), .integer(lease.epoch), .text(lease.daemonID), .integer(lease.epoch)
                        ])
            }
        }
    }

    /// Records how claims of any daemon ended (a daemon settling those of one that died), in one
    /// transaction: each claim's status, its last attempt's run and when its first attempt
    /// started; a note is added to the claim's note. Claims no longer queued or running are left alone.
    func settle(_ endings: [ClaimEnding]) throws {
        guard !endings.isEmpty else { return }
        try state.write { connection in
            for ending in endings {
                try connection.execute(Self.finishStatement(ending), Self.values(of: ending))
            }
        }
    }

    /// The update recording an ending (``values(of:)``), followed by conditions of the caller's.
    private static func finishStatement(_ ending: ClaimEnding) -> String {
        // The note is added in its own branch rather than by `CASE WHEN ? IS NULL`, whose
        // parameter PostgreSQL could not give a type.
        let note = ending.note == nil ? "" : "note = CASE WHEN note IS NULL THEN ? ELSE note || '; ' || ? END, "
        return """
            UPDATE claim SET status = ?, \(note)runID = coalesce(?, runID), attempts = ?, startedAt = coalesce(startedAt, ?), endedAt = ?,
                             cancelRequested = 0
            WHERE id = ? AND status IN ('queued', 'running')
            """
    }

    private static func values(of ending: ClaimEnding) -> [SQLValue] {
        let note: [SQLValue] = ending.note.map { [.text($0), .text($0)] } ?? []
        return [.text(ending.status.rawValue)] + note + [
            .optional(ending.runID), .integer(Int64(ending.attempts)), .date(ending.startedAt), .date(ending.endedAt), .integer(ending.id)
        ]
    }

    /// Starts one of this daemon's queued claims: it becomes running when no claim of its
    /// automation runs (any daemon's) and it is the automation's earliest queued due time.
    ///
    /// - Returns: Whether it became running; `false` when it must wait longer, or is no longer
    ///   queued (cancelled by a replacing run, settled by another daemon).
    /// - Throws: ``LeaseLost`` when the lease is no longer valid.
    func promote(_ claimID: Int64, lease: Lease) throws -> Bool {
        try state.write(durable: true) { connection in
            let now = try fence(lease, in: connection, allowingExpired: true)
            guard
                let row = try connection.row(
                    "SELECT automationKey, dueTime FROM claim WHERE id = ? AND daemonID = ? AND epoch = ? AND status = 'queued'",
                    [.integer(claimID), .text(lease.daemonID), .integer(lease.epoch)]),
                let key = row.text("automationKey"), let dueTime = row.integer("dueTime")
            else { return false }
            try lockAutomations([key], now: now, in: connection)
            let blocking =
                try connection.row(
                    """
                    SELECT count(*) AS claims FROM claim
                    WHERE automationKey = ? AND (status = 'running' OR (status = 'queued' AND dueTime < ?))
                    """, [.text(key), .integer(dueTime)])?.int("claims") ?? 0
            guard blocking == 0 else { return false }
            return try connection.execute(
                "UPDATE claim SET status = 'running', attempts = 1, startedAt = ? WHERE id = ? AND status = 'queued'",
                [.real(now), .integer(claimID)]) == 1
        }
    }

    /// What this daemon must stop or drop because another daemon's run replaced it
    /// (`overlap: replace`): its running claims asked to stop (reported until they end), and its
    /// queued claims cancelled meanwhile (reported once).
    ///
    /// - Returns: The claims' ids.
    func cancellations(for lease: Lease) throws -> (stop: [Int64], dropped: [Int64]) {
        try state.write { connection in
            let rows = try connection.rows(
                """
                SELECT id, status FROM claim
                WHERE daemonID = ? AND epoch = ? AND cancelRequested = 1 AND status IN ('running', 'cancelled')
                ORDER BY id
                """, [.text(lease.daemonID), .integer(lease.epoch)])
            let stop = rows.filter { $0.text("status") == "running" }.compactMap { $0.integer("id") }
            let dropped = rows.filter { $0.text("status") == "cancelled" }.compactMap { $0.integer("id") }
            for id in dropped {
                try connection.execute("UPDATE claim SET cancelRequested = 0 WHERE id = ?", [.integer(id)])
            }
            return (stop, dropped)
        }
    }

    /// Marks claims that are still pending as interrupted.
    func markInterrupted(_ ids: [Int64], note: String, at date: Date) throws {
        guard !ids.isEmpty else { return }
        try state.write { connection in
            for id in ids {
                try connection.execute(
                    "UPDATE claim SET status = 'interrupted', note = ?, endedAt = ? WHERE id = ? AND status IN ('queued', 'running')",
                    [.text(note), .date(date), .integer(id)])
            }
        }
    }

    /// Deletes finished claims older than ``retention`` (keeping each automation's latest),
    /// ended run requests older than it, and daemons that stopped or were settled before it.
    func prune(now: Date) throws {
        let horizon = now.timeIntervalSince1970 - Self.retention
        try state.write { connection in
            try connection.execute(
                """
                DELETE FROM claim
                WHERE dueTime < ? AND status NOT IN ('queued', 'running')
                  AND dueTime < (SELECT max(latest.dueTime) FROM claim AS latest WHERE latest.automationKey = claim.automationKey)
                """, [.integer(Int64(horizon))])
            try connection.execute("DELETE FROM runRequest WHERE endedAt < ? AND status NOT IN ('queued', 'running')", [.real(horizon)])
            try connection.execute(
                """
                DELETE FROM daemon WHERE coalesce(stoppedAt, settledAt) < ?
                  AND NOT EXISTS (SELECT 1 FROM claim WHERE claim.daemonID = daemon.id AND claim.status IN ('queued', 'running'))
                """, [.real(horizon)])
        }
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
        try state.write { connection in
            var cursors: [String: Date] = [:]
            for automation in automations {
                let key = SQLValue.text(automation.key)
                var since = now.timeIntervalSince1970
                if let row = try connection.row("SELECT definition, since FROM automation WHERE key = ?", [key]) {
                    if row.text("definition") == automation.definition && automation.isEnabled {
                        since = row.real("since") ?? since
                    } else {
                        try connection.execute(
                            "UPDATE automation SET definition = ?, since = ? WHERE key = ?", [.text(automation.definition), .real(since), key])
                    }
                } else {
                    try connection.execute(
                        "INSERT INTO automation (key, definition, since) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
                        [key, .text(automation.definition), .real(since)])
                }
                guard automation.isEnabled else { continue }
                let lastDue =
                    try connection.row("SELECT max(dueTime) AS latest FROM claim WHERE automationKey = ?", [key])?.real("latest") ?? -.infinity
                cursors[automation.key] = Date(timeIntervalSince1970: max(since, lastDue))
            }
            return cursors
        }
    }
}

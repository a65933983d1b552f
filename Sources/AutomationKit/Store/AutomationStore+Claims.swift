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
            var results = [ClaimResult?](repeating: nil, count: requests.count)
            // Automation rows are locked in one order by every daemon, so that two batches never wait on each other.
            let order = requests.indices.sorted {
                (requests[$0].automationKey, requests[$0].dueTime) < (requests[$1].automationKey, requests[$1].dueTime)
            }
            var locked: Set<String> = []
            for index in order {
                let request = requests[index]
                if locked.insert(request.automationKey).inserted {
                    try lockAutomation(request.automationKey, now: now, in: connection)
                }
                results[index] = try claim(request, lease: lease, now: now, in: connection)
            }
            return results.map { $0 ?? .lost }
        }
    }

    private func lockAutomation(_ key: String, now: Double, in connection: any StateConnection) throws {
        let select = "SELECT key FROM automation WHERE key = ?" + connection.dialect.lockRows
        if try connection.row(select, [.text(key)]) != nil { return }
        try connection.execute(
            "INSERT INTO automation (key, definition, since) VALUES (?, '', ?) ON CONFLICT (key) DO NOTHING", [.text(key), .real(now)])
        _ = try connection.row(select, [.text(key)])
    }

    private func claim(_ request: ClaimRequest, lease: Lease, now: Double, in connection: any StateConnection) throws -> ClaimResult {
        let key = SQLValue.text(request.automationKey)
        var status = Claim.Status.missed
        var note = request.note
        var replaces = false
        if !request.isMissed {
            var running = 0
            var queued = 0
            for row in try connection.rows(
                "SELECT status, count(*) AS claims FROM claim WHERE automationKey = ? AND status IN ('queued', 'running') GROUP BY status", [key])
            {
                if row.text("status") == "running" { running = row.int("claims") ?? 0 } else { queued = row.int("claims") ?? 0 }
            }
            switch OverlapDecision(policy: request.overlap, isSequentialCatchUp: request.isSequentialCatchUp, running: running, queued: queued) {
            case .start(let replacing):
                status = .running
                replaces = replacing
            case .queue:
                status = .queued
            case .skip(let reason):
                status = .skipped
                note = note.map { "\($0); \(reason)" } ?? reason
            }
        }
        let runID: SQLValue = status == .running || status == .queued ? .text(request.runID) : .null
        let inserted = try connection.row(
            """
            INSERT INTO claim (automationKey, dueTime, status, runID, daemonID, epoch, isCatchUp, attempts, claimedAt, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (automationKey, dueTime) DO NOTHING
            RETURNING id
            """,
            [
                key, .integer(request.dueTime), .text(status.rawValue), runID, .text(lease.daemonID), .integer(lease.epoch),
                .bool(request.isCatchUp), .integer(status == .running ? 1 : 0), .real(now), .optional(note)
            ])
        guard let id = inserted?.integer("id") else {
            let existing = try connection.row("SELECT * FROM claim WHERE automationKey = ? AND dueTime = ?", [key, .integer(request.dueTime)])
                .map(Claim.init(row:))
            guard let existing, existing.daemonID == lease.daemonID, existing.epoch == lease.epoch else { return .lost }
            return .claimed(existing, replaced: [])
        }
        let claim = Claim(
            id: id, automationKey: request.automationKey, dueTime: request.dueTime, status: status,
            runID: runID.textValue, daemonID: lease.daemonID, isCatchUp: request.isCatchUp, attempts: status == .running ? 1 : 0,
            claimedAt: now, startedAt: nil, endedAt: nil, note: note, epoch: lease.epoch)
        guard replaces else { return .claimed(claim, replaced: []) }
        let replaced = try connection.rows(
            "SELECT * FROM claim WHERE automationKey = ? AND status IN ('queued', 'running') AND id != ? ORDER BY dueTime",
            [key, .integer(id)]
        ).map(Claim.init(row:))
        let reason = "replaced by the run due at \(Date(timeIntervalSince1970: Double(request.dueTime)).formatted(.iso8601)) (overlap: replace)"
        try connection.execute(
            "UPDATE claim SET cancelRequested = 1 WHERE automationKey = ? AND status = 'running' AND id != ?", [key, .integer(id)])
        try connection.execute(
            """
            UPDATE claim SET status = 'cancelled', cancelRequested = 1, endedAt = ?,
                             note = CASE WHEN note IS NULL THEN ? ELSE note || '; ' || ? END
            WHERE automationKey = ? AND status = 'queued' AND id != ?
            """, [.real(now), .text(reason), .text(reason), key, .integer(id)])
        return .claimed(
            claim,
            replaced: replaced.map { other in
                var other = other
                other.isCancelRequested = true
                if other.status == .queued {
                    other.status = .cancelled
                    other.endedAt = now
                    other.note = other.note.map { "\($0); \(reason)" } ?? reason
                }
                return other
            })
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
            try lockAutomation(key, now: now, in: connection)
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

import Clockwork
import Foundation
import StateStorage

/// Daemons and their leases: a daemon registers (getting a new epoch), renews its lease every
/// heartbeat, and a live daemon takes over the claims of one whose lease expired.
///
/// Every time here is the database's clock, the one clock daemons on different machines share.
extension AutomationStore {
    /// Registers a daemon (again, when its lease was lost) and grants it a lease with a new epoch.
    ///
    /// A daemon registering again under the same identifier supersedes its former lease: the
    /// claims of its former epochs still queued or running, and the run requests it had taken,
    /// are marked `interrupted` (the daemon dropped them when it lost the lease).
    ///
    /// - Returns: The lease, by the database's clock.
    func register(_ registration: DaemonRegistration) throws -> Lease {
        let seconds = registration.leaseDuration.timeInterval
        return try state.write(durable: true) { connection in
            let now = try now(connection)
            let epoch: Int64 =
                switch connection.dialect {
                case .postgres: try connection.row("SELECT nextval('daemon_epoch') AS epoch", [])?.integer("epoch") ?? 1
                case .sqlite: try connection.row("SELECT coalesce(max(epoch), 0) + 1 AS epoch FROM daemon", [])?.integer("epoch") ?? 1
                }
            let id = SQLValue.text(registration.id)
            let existing = try connection.row("SELECT epoch FROM daemon WHERE id = ?" + connection.dialect.lockRows, [id])
            if existing == nil {
                try connection.execute(
                    """
                    INSERT INTO daemon (id, pid, host, workflows, startedAt, epoch, leaseSeconds, renewedAt, leaseExpiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        id, .integer(Int64(registration.pid)), .text(registration.host), .text(registration.workflows), .real(now),
                        .integer(epoch), .real(seconds), .real(now), .real(now + seconds)
                    ])
            } else {
                try connection.execute(
                    """
                    UPDATE daemon SET pid = ?, host = ?, workflows = ?, epoch = ?, leaseSeconds = ?, renewedAt = ?, leaseExpiresAt = ?,
                                      stoppedAt = NULL, settledAt = NULL, settledBy = NULL
                    WHERE id = ?
                    """,
                    [
                        .integer(Int64(registration.pid)), .text(registration.host), .text(registration.workflows), .integer(epoch),
                        .real(seconds), .real(now), .real(now + seconds), id
                    ])
                let note = "interrupted: the daemon lost its lease and registered again (epoch \(epoch))"
                try connection.execute(
                    """
                    UPDATE claim SET status = 'interrupted', note = ?, endedAt = ?
                    WHERE daemonID = ? AND epoch < ? AND status IN ('queued', 'running')
                    """, [.text(note), .real(now), id, .integer(epoch)])
                try connection.execute(
                    "UPDATE runRequest SET status = 'interrupted', error = ?, endedAt = ? WHERE daemonID = ? AND status = 'running'",
                    [.text(note), .real(now), id])
            }
            return Lease(
                daemonID: registration.id, epoch: epoch, expiresAt: Date(timeIntervalSince1970: now + seconds),
                databaseNow: Date(timeIntervalSince1970: now), duration: registration.leaseDuration)
        }
    }

    /// Extends a lease by its duration from now.
    ///
    /// A lease that expired is renewed too as long as no other daemon took its claims over.
    ///
    /// - Returns: The renewed lease, or `nil` when it is lost: another daemon settled its
    ///   claims, the daemon registered again (a newer epoch), or it was recorded as stopped.
    func renew(_ lease: Lease) throws -> Lease? {
        let seconds = lease.duration.timeInterval
        return try state.write { connection in
            let now = try now(connection)
            let renewed = try connection.execute(
                """
                UPDATE daemon SET renewedAt = ?, leaseExpiresAt = ?, leaseSeconds = ?
                WHERE id = ? AND epoch = ? AND settledAt IS NULL AND stoppedAt IS NULL
                """, [.real(now), .real(now + seconds), .real(seconds), .text(lease.daemonID), .integer(lease.epoch)])
            guard renewed == 1 else { return nil }
            var lease = lease
            lease.expiresAt = Date(timeIntervalSince1970: now + seconds)
            lease.databaseNow = Date(timeIntervalSince1970: now)
            return lease
        }
    }

    /// Records that a daemon stopped cleanly: its lease ends now.
    func stopped(_ lease: Lease) throws {
        try state.write { connection in
            let now = try now(connection)
            try connection.execute(
                "UPDATE daemon SET stoppedAt = ?, leaseExpiresAt = ? WHERE id = ? AND epoch = ?",
                [.real(now), .real(now), .text(lease.daemonID), .integer(lease.epoch)])
        }
    }

    /// The daemons known to the store, alive first, then by when they started (latest first).
    ///
    /// ```swift
    /// for daemon in try store.daemons() where daemon.isAlive {
    ///     print(daemon.host, daemon.pid, daemon.running, "running,", daemon.claimedLastMinute, "claims in the last minute")
    /// }
    /// ```
    ///
    /// - Returns: Every daemon that ran since the store's retention (a day), and every live one.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func daemons() throws -> [DaemonInfo] {
        try state.read { connection in
            let now = try now(connection)
            return try connection.rows(
                Self.daemonQuery + " WHERE coalesce(stoppedAt, settledAt, leaseExpiresAt, startedAt) >= ? ORDER BY startedAt DESC",
                [.real(now - 60), .real(now - Self.retention)]
            ).map { Self.daemonInfo($0, now: now) }.sorted { $0.isAlive && !$1.isAlive }
        }
    }

    /// The daemons whose lease expired, by the database's clock, without their stopping or
    /// another daemon settling their claims: those a live daemon should take over.
    ///
    /// - Parameter lease: The asking daemon's lease; it is never in the list.
    func expiredDaemons(now lease: Lease) throws -> [DaemonInfo] {
        try state.read { connection in
            let now = try now(connection)
            return try connection.rows(
                Self.daemonQuery
                    + " WHERE id != ? AND stoppedAt IS NULL AND settledAt IS NULL AND leaseExpiresAt IS NOT NULL AND leaseExpiresAt < ? ORDER BY id",
                [.real(now - 60), .text(lease.daemonID), .real(now)]
            ).map { Self.daemonInfo($0, now: now) }
        }
    }

    /// Takes over a daemon whose lease expired: marks it settled by this daemon, marks the run
    /// requests it had taken `interrupted`, and returns its claims still queued or running,
    /// for the caller to settle (from the run history, or as interrupted: ``settle(_:)``,
    /// ``markInterrupted(_:note:at:)``).
    ///
    /// - Parameters:
    ///   - daemonID: The expired daemon.
    ///   - lease: The lease of the daemon taking over.
    /// - Returns: The claims, or `nil` when the daemon is no longer expired or another daemon
    ///   took it over first.
    /// - Throws: ``LeaseLost`` when the taker's own lease is no longer valid.
    func takeOver(_ daemonID: String, by lease: Lease) throws -> [Claim]? {
        try state.write(durable: true) { connection in
            let now = try fence(lease, in: connection)
            let taken = try connection.execute(
                """
                UPDATE daemon SET settledAt = ?, settledBy = ?
                WHERE id = ? AND id != ? AND settledAt IS NULL AND stoppedAt IS NULL AND leaseExpiresAt < ?
                """, [.real(now), .text(lease.daemonID), .text(daemonID), .text(lease.daemonID), .real(now)])
            guard taken == 1 else { return nil }
            try connection.execute(
                "UPDATE runRequest SET status = 'interrupted', error = ?, endedAt = ? WHERE daemonID = ? AND status = 'running'",
                [.text("interrupted: the daemon that ran it stopped renewing its lease (killed, crashed or cut off)"), .real(now), .text(daemonID)])
            return try connection.rows(
                "SELECT * FROM claim WHERE daemonID = ? AND status IN ('queued', 'running') ORDER BY automationKey, dueTime", [.text(daemonID)]
            ).map(Claim.init(row:))
        }
    }

    /// Checks, with the daemon's row locked until the transaction ends, that a lease is still
    /// valid: same epoch, not settled by another daemon, not stopped, and (unless
    /// `allowingExpired`) not expired.
    ///
    /// - Returns: The database's clock.
    /// - Throws: ``LeaseLost`` otherwise.
    func fence(_ lease: Lease, in connection: any StateConnection, allowingExpired: Bool = false) throws -> Double {
        let time = currentTime(in: connection)
        let row = try connection.row(
            "SELECT epoch, settledAt, stoppedAt, leaseExpiresAt, \(time.expression) AS now FROM daemon WHERE id = ?"
                + connection.dialect.lockRows, time.values + [.text(lease.daemonID)])
        guard let row, let now = row.real("now"), row.integer("epoch") == lease.epoch, row["settledAt"] == .null, row["stoppedAt"] == .null,
            allowingExpired || (row.real("leaseExpiresAt") ?? 0) > now
        else { throw LeaseLost(daemonID: lease.daemonID, epoch: lease.epoch) }
        return now
    }

    /// A condition on a claim's daemon (the statement's first two values: id and epoch): its
    /// lease of that epoch was not lost.
    static let holdsLease = "EXISTS (SELECT 1 FROM daemon WHERE daemon.id = ? AND daemon.epoch = ? AND daemon.settledAt IS NULL)"

    private static let daemonQuery = """
        SELECT id, pid, host, workflows, epoch, startedAt, renewedAt, leaseExpiresAt, stoppedAt, settledAt, settledBy,
               (SELECT count(*) FROM claim WHERE claim.daemonID = daemon.id AND claim.status = 'running') AS running,
               (SELECT count(*) FROM claim WHERE claim.daemonID = daemon.id AND claim.claimedAt >= ?) AS claimedlastminute
        FROM daemon
        """

    private static func daemonInfo(_ row: SQLRow, now: Double) -> DaemonInfo {
        let stoppedAt = row.date("stoppedAt")
        let settledAt = row.date("settledAt")
        let expiresAt = row.date("leaseExpiresAt")
        return DaemonInfo(
            id: row.text("id") ?? "", pid: row.int("pid") ?? 0, host: row.text("host") ?? "", workflows: row.text("workflows") ?? "",
            epoch: row.integer("epoch") ?? 0, startedAt: row.date("startedAt") ?? .distantPast, renewedAt: row.date("renewedAt"),
            leaseExpiresAt: expiresAt, stoppedAt: stoppedAt, settledAt: settledAt, settledBy: row.text("settledBy"),
            running: row.int("running") ?? 0, claimedLastMinute: row.int("claimedLastMinute") ?? 0,
            isAlive: stoppedAt == nil && settledAt == nil && (expiresAt?.timeIntervalSince1970 ?? 0) > now)
    }

}

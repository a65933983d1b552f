import Foundation

/// What a daemon says of itself when it joins: written to the `daemon` table.
public struct DaemonRegistration: Sendable {
    /// A new lowercase UUID per daemon process.
    public var id: String
    public var pid: Int
    public var host: String
    /// The workflows folder's absolute path on its machine.
    public var workflows: String
    /// How long the lease lasts without a renewal.
    public var leaseDuration: Duration

    public init(id: String, pid: Int, host: String, workflows: String, leaseDuration: Duration) {
        self.id = id
        self.pid = pid
        self.host = host
        self.workflows = workflows
        self.leaseDuration = leaseDuration
    }
}

/// A daemon's right to claim and run due times, held while it renews it in time.
///
/// Each registration gets a new ``epoch`` from the database. Every claim records the epoch it
/// was made under, and every write about a claim (starting a run, recording its end) is
/// refused unless the claim's daemon still holds that epoch's lease: a daemon that was paused
/// past its lease, and whose claims another daemon settled, cannot run them when it resumes
/// (fencing).
public struct Lease: Sendable, Equatable {
    public var daemonID: String
    /// Increases with every registration, across all daemons.
    public var epoch: Int64
    /// When it ends unless renewed, by the database's clock.
    public var expiresAt: Date
    /// The database's clock when it was granted or renewed: the daemon's clock is corrected by
    /// the difference (see ``DaemonClock``).
    public var databaseNow: Date
    public var duration: Duration

    public init(daemonID: String, epoch: Int64, expiresAt: Date, databaseNow: Date, duration: Duration) {
        self.daemonID = daemonID
        self.epoch = epoch
        self.expiresAt = expiresAt
        self.databaseNow = databaseNow
        self.duration = duration
    }
}

/// A daemon as the store knows it, for `shortcuts daemons list` and for finding dead ones.
public struct DaemonInfo: Sendable, Codable, Equatable {
    public var id: String
    public var pid: Int
    public var host: String
    public var workflows: String
    public var epoch: Int64
    public var startedAt: Date
    /// Its latest renewal.
    public var renewedAt: Date?
    public var leaseExpiresAt: Date?
    /// When it stopped cleanly.
    public var stoppedAt: Date?
    /// When another daemon found its lease expired and settled its claims, and which one.
    public var settledAt: Date?
    public var settledBy: String?
    /// Its claims now running.
    public var running: Int
    /// Due times it claimed in the last minute.
    public var claimedLastMinute: Int
    /// Whether it holds a lease that has not expired (by the database's clock when read).
    public var isAlive: Bool

    public init(
        id: String, pid: Int, host: String, workflows: String, epoch: Int64, startedAt: Date, renewedAt: Date?, leaseExpiresAt: Date?,
        stoppedAt: Date?, settledAt: Date?, settledBy: String?, running: Int, claimedLastMinute: Int, isAlive: Bool
    ) {
        self.id = id
        self.pid = pid
        self.host = host
        self.workflows = workflows
        self.epoch = epoch
        self.startedAt = startedAt
        self.renewedAt = renewedAt
        self.leaseExpiresAt = leaseExpiresAt
        self.stoppedAt = stoppedAt
        self.settledAt = settledAt
        self.settledBy = settledBy
        self.running = running
        self.claimedLastMinute = claimedLastMinute
        self.isAlive = isAlive
    }
}

/// The daemon's lease is no longer valid (it expired and another daemon settled its claims,
/// or it was superseded): the write was refused. The daemon must drop what it holds and
/// register again.
public struct LeaseLost: Error, CustomStringConvertible, Sendable {
    public var daemonID: String
    public var epoch: Int64

    public init(daemonID: String, epoch: Int64) {
        self.daemonID = daemonID
        self.epoch = epoch
    }

    public var description: String {
        "the daemon's lease (epoch \(epoch)) is no longer valid: another daemon settled its claims"
    }
}

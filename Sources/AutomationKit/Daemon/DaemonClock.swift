import Clockwork
import Foundation

/// The daemon's idea of the current time: the local clock corrected by its offset to the
/// database's clock, measured at each lease registration and renewal.
///
/// Daemons on several machines decide due times by one clock, the shared database's, so that
/// a machine whose clock is ahead does not claim due times before the others and one behind
/// does not find them already taken. The offset is measured against the middle of the
/// round trip that carried the database's reading, so its error is at most half that round
/// trip. With a SQLite store the database's clock is the local one and the offset stays 0.
///
/// The local clock is the engine's (``EngineClock``), so a test that gives the daemon a
/// manual clock decides every due time, lease renewal and backoff by advancing it.
///
/// ```swift
/// let clock = DaemonClock(local: .system)
/// let sent = clock.local.now()
/// let lease = try store.renew(lease)
/// clock.measure(databaseNow: lease.databaseNow, sent: sent, received: clock.local.now())
/// let due = automation.nextDueTime(after: clock.now())
/// ```
final class DaemonClock: @unchecked Sendable {
    private let lock = NSLock()
    private var storedOffset: TimeInterval = 0
    /// The machine's clock: what the daemon sleeps and measures durations by.
    let local: any EngineClock

    init(local: any EngineClock, offset: TimeInterval = 0) {
        self.local = local
        storedOffset = offset
    }

    /// How far the database's clock is ahead of the local one, in seconds.
    var offset: TimeInterval { lock.withLock { storedOffset } }

    /// The current time by the database's clock.
    func now() -> Date { local.now().addingTimeInterval(offset) }

    /// The local instant at which the database's clock shows `date`, to sleep until.
    func localDate(for date: Date) -> Date { date.addingTimeInterval(-offset) }

    /// Records a reading of the database's clock taken during a round trip.
    ///
    /// - Parameters:
    ///   - databaseNow: The database's clock, as the round trip returned it.
    ///   - sent: The local clock when the request was sent.
    ///   - received: The local clock when the answer came.
    func measure(databaseNow: Date, sent: Date, received: Date) {
        let middle = sent.addingTimeInterval(received.timeIntervalSince(sent) / 2)
        let measured = databaseNow.timeIntervalSince(middle)
        lock.withLock { storedOffset = measured }
    }
}

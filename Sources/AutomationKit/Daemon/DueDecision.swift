import Foundation

/// What the scheduler does with a due time it takes off its queue: a value decided from plain
/// values (how late it is, whether another daemon ranks first for it, whether the database is
/// away), so that each case is tested without a daemon, a store or a clock.
///
/// ```swift
/// switch DueDecision(due: nine, isDelayed: false, now: nineAndAMinute, rankingDelay: 0, databaseIsAway: false) {
/// case .fellBehind: …   // 61 s late: the due times since follow catchUp:
/// case .claim: …
/// }
/// ```
enum DueDecision: Equatable {
    /// The daemon fell behind by more than ``stallThreshold`` (it was suspended, or the clock
    /// changed): the due times since this one follow the automation's `catchUp:`, as after a
    /// restart.
    case fellBehind
    /// Another live daemon ranks first for this due time: it goes back in the queue until
    /// this instant, this daemon's turn, and is claimed then unless the other daemon did.
    case waitForTurn(until: Date)
    /// The database cannot be reached: the due time waits in the backlog with the others and
    /// is claimed in order when it answers again.
    case backlog
    /// Claim it now.
    case claim

    /// A due time more than this late means the daemon stalled.
    static let stallThreshold: TimeInterval = 60

    /// Decides what a due time does.
    ///
    /// - Parameters:
    ///   - due: The due time.
    ///   - isDelayed: Whether it already waited for its turn (it is not delayed or caught up twice).
    ///   - now: The current time, by the database's clock.
    ///   - rankingDelay: How long this daemon waits for the daemons ranked before it
    ///     (``RendezvousRanking/delay(for:dueTime:daemon:)``); 0 when it ranks first.
    ///   - databaseIsAway: Whether the backlog is waiting for the database.
    init(due: Date, isDelayed: Bool, now: Date, rankingDelay: TimeInterval, databaseIsAway: Bool) {
        if !isDelayed {
            if due < now.addingTimeInterval(-Self.stallThreshold) {
                self = .fellBehind
                return
            }
            if rankingDelay > 0, due.addingTimeInterval(rankingDelay) > now {
                self = .waitForTurn(until: due.addingTimeInterval(rankingDelay))
                return
            }
        }
        self = databaseIsAway ? .backlog : .claim
    }
}

import Clockwork
import Foundation

/// A clock that stands still until a test moves it.
///
/// Give it to the engine where it would take ``SystemClock``; then advance it. Every task
/// sleeping on it and every thread waiting on it whose deadline has come is woken, earliest
/// deadline first, as swift-async-algorithms' `ManualClock` does for tasks:
///
/// ```swift
/// let clock = ManualClock()
/// let retrying = Task { try await clock.sleep(for: .seconds(30)) }
/// try await clock.waitForSleepers(1)      // the task is asleep on the clock
/// clock.advance(by: .seconds(30))         // and now it is not
/// try await retrying.value
/// ```
///
/// A test learns that the engine reached its next wait with ``waitForSleepers(_:patience:)``,
/// an event, never a fixed pause.
public final class ManualClock: EngineClock, @unchecked Sendable {
    private let lock = NSCondition()
    private var current: Date
    private var nextID = 0
    private var sleepers: [Int: Sleeper] = [:]

    private struct Sleeper {
        let deadline: Date
        let wake: Wake
    }

    private enum Wake {
        /// A task: resumed once, with `nil` when its deadline came or the error that ended it.
        case task(CheckedContinuation<Void, any Error>)
        /// A thread waiting on a condition: broadcast when its deadline comes.
        case thread(NSCondition)
    }

    /// A clock showing `now`: by default a fixed instant, 2027-01-15 08:00:00 UTC, so that a
    /// test's times read the same on every run.
    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = now
    }

    public func now() -> Date { lock.withLock { current } }

    /// How many tasks and threads are waiting on the clock with a deadline still to come.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// The earliest deadline anything waits for, if anything waits.
    public var nextDeadline: Date? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    /// Moves the clock forward and wakes, in the order of their deadlines, every sleeper
    /// whose deadline it reached.
    public func advance(by duration: Duration) {
        advance(to: now().adding(duration))
    }

    /// Moves the clock to `date` (never back) and wakes every sleeper whose deadline came.
    public func advance(to date: Date) {
        let due = lock.withLock { () -> [Sleeper] in
            current = max(current, date)
            let due = sleepers.filter { $0.value.deadline <= current }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { sleepers[id] = nil }
            lock.broadcast()
            return due.map(\.value)
        }
        for sleeper in due {
            switch sleeper.wake {
            case .task(let continuation): continuation.resume()
            case .thread(let condition):
                // Taking the condition's lock waits until the waiter is inside `wait()`, so
                // the broadcast cannot fall between its check of the time and its wait.
                condition.lock()
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Moves the clock to the earliest deadline anything waits for, and wakes what waits
    /// for it. Returns that deadline, or `nil` (and moves nothing) when nothing waits.
    @discardableResult
    public func advanceToNextDeadline() -> Date? {
        guard let next = nextDeadline else { return nil }
        advance(to: next)
        return next
    }

    /// Waits until at least `count` tasks or threads are waiting on the clock: the event that
    /// says the code under test reached its next wait.
    ///
    /// - Parameter patience: Real time after which the test fails instead of hanging; a bound
    ///   for a broken test, never part of what is tested.
    /// - Throws: ``ManualClockError/sleepersMissing(expected:found:)`` when they do not come.
    public func waitForSleepers(_ count: Int, patience: Duration = .seconds(120)) async throws {
        guard try await waitOnThread(patience: patience, until: { $0.count >= count }) else {
            throw ManualClockError.sleepersMissing(expected: count, found: sleeperCount)
        }
    }

    /// Waits until something sleeps on the clock with a deadline that `matches`: the event
    /// that says the code under test computed the wait a test is about to end.
    ///
    /// ```swift
    /// try await clock.waitForSleeper { $0 == start.addingTimeInterval(600) }   // the backoff
    /// clock.advance(by: .seconds(600))
    /// ```
    ///
    /// - Parameters:
    ///   - patience: Real time after which the test fails instead of hanging.
    ///   - count: How many sleepers must have such a deadline (one by default).
    /// - Throws: ``ManualClockError/deadlineMissing(found:)`` when no such sleeper comes, and
    ///   `CancellationError` when the task is cancelled first.
    public func waitForSleeper(
        patience: Duration = .seconds(120), count: Int = 1, deadline matches: @escaping @Sendable (Date) -> Bool
    ) async throws {
        guard try await waitOnThread(patience: patience, until: { $0.filter(matches).count >= count }) else {
            throw ManualClockError.deadlineMissing(found: lock.withLock { sleepers.values.map(\.deadline).sorted() })
        }
    }

    /// Waits until `holds` is true of the sleepers' deadlines, or `patience` of real time is
    /// over; returns whether it held. The wait is on a thread of its own: a blocked thread of
    /// Swift's small cooperative pool would hold back the very tasks the test waits for.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    private func waitOnThread(patience: Duration, until holds: @escaping @Sendable ([Date]) -> Bool) async throws -> Bool {
        let limit = Date().addingTimeInterval(patience.timeInterval)
        let waiter = Waiter()
        let held = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Thread { [self] in
                    let held = lock.withLock { () -> Bool in
                        while !holds(sleepers.values.map(\.deadline)) {
                            guard !waiter.isCancelled, lock.wait(until: limit) else { return false }
                        }
                        return true
                    }
                    continuation.resume(returning: held)
                }.start()
            }
        } onCancel: {
            lock.withLock {
                waiter.isCancelled = true
                lock.broadcast()
            }
        }
        try Task.checkCancellation()
        return held
    }

    /// Waits until something waits on the clock for `deadline` (to within a microsecond): the
    /// event that says the code under test set that deadline, such as the grace period after
    /// a `SIGTERM`.
    ///
    /// ```swift
    /// try await clock.waitForSleeper(deadline: start.adding(.seconds(2)))
    /// clock.advance(to: start.adding(.seconds(2)))
    /// ```
    ///
    /// - Parameters:
    ///   - deadline: The deadline waited for.
    ///   - count: How many sleepers must wait for it (one by default), such as four runs each
    ///     in its own `wait:`.
    ///   - patience: Real time after which the test fails instead of hanging.
    /// - Throws: ``ManualClockError/deadlineMissing(found:)`` when no such sleeper comes.
    public func waitForSleeper(deadline: Date, count: Int = 1, patience: Duration = .seconds(120)) async throws {
        try await waitForSleeper(patience: patience, count: count) { abs($0.timeIntervalSince(deadline)) < 1e-6 }
    }

    /// Runs `work` while moving the clock from one deadline to the next whenever something
    /// sleeps on it within `horizon`, until `work` returns: for code that waits on the clock
    /// before it ends (a daemon's grace period, a run's remaining `wait:`), when the test only
    /// cares that it ends.
    ///
    /// ```swift
    /// await clock.advancing { await daemon.stop() }
    /// ```
    public func advancing<Result: Sendable>(
        within horizon: Duration = .seconds(365 * 86_400), _ work: @escaping @Sendable () async -> Result
    ) async -> Result {
        await withTaskGroup(of: Result?.self) { group in
            group.addTask { await work() }
            group.addTask { [self] in
                while !Task.isCancelled {
                    let limit = now().adding(horizon)
                    guard (try? await waitForSleeper(patience: .seconds(3600), deadline: { $0 < limit })) != nil else { return nil }
                    advanceToNextDeadline()
                }
                return nil
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            preconditionFailure("the work's task always returns a result")
        }
    }

    public func sleep(until deadline: Date) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = lock.withLock {
                    if Task.isCancelled { return .some(CancellationError()) }
                    if deadline <= current { return .some(nil) }
                    sleepers[id] = Sleeper(deadline: deadline, wake: .task(continuation))
                    lock.broadcast()
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                defer { sleepers[id] = nil }
                return sleepers[id]
            }
            if case .task(let continuation) = sleeper?.wake { continuation.resume(throwing: CancellationError()) }
        }
    }

    public func wait(on condition: NSCondition, until deadline: Date) -> Bool {
        // Registered before the time is read: an advance after the read finds the waiter and
        // broadcasts its condition once the waiter is inside `wait()`.
        let id = lock.withLock { () -> Int in
            nextID += 1
            sleepers[nextID] = Sleeper(deadline: deadline, wake: .thread(condition))
            lock.broadcast()
            return nextID
        }
        defer { lock.withLock { _ = sleepers.removeValue(forKey: id) } }
        guard now() < deadline else { return false }
        condition.wait()
        return now() < deadline
    }
}

/// Whether the task of a wait for sleepers was cancelled; read and set with the clock's lock.
private final class Waiter: @unchecked Sendable {
    var isCancelled = false
}

/// Why ``ManualClock/waitForSleepers(_:patience:)`` failed.
public enum ManualClockError: Error, CustomStringConvertible {
    /// Fewer sleepers came than the test expected, within its patience.
    case sleepersMissing(expected: Int, found: Int)
    /// No sleeper came with the deadline the test expected; these are the deadlines there were.
    case deadlineMissing(found: [Date])

    public var description: String {
        switch self {
        case .sleepersMissing(let expected, let found):
            "expected \(expected) sleeper\(expected == 1 ? "" : "s") on the manual clock, found \(found): the code under test never reached its wait"
        case .deadlineMissing(let found):
            "no sleeper on the manual clock had the expected deadline; the deadlines were: "
                + (found.isEmpty ? "none" : found.map { $0.formatted(.iso8601) }.joined(separator: ", "))
        }
    }
}

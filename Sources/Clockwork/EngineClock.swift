import Foundation

/// The one place the engine reads the time and waits for it.
///
/// Everything in the engine that asks what time it is, sleeps, or waits on a condition with a
/// deadline does it through a clock it was given, ``SystemClock`` unless said otherwise. A test
/// gives a manual clock instead and advances it: a retry's backoff, a lease's expiry, a
/// debounce or an idle timeout then happens when the test says, not after real seconds.
///
/// Time is wall-clock time (`Date`), the one cron schedules, leases and run records are
/// written in. Waits are given deadlines rather than durations, so a wait that wakes early
/// (a signal, a spurious wake-up) knows how long is left.
///
/// ```swift
/// struct Backoff {
///     let clock: any EngineClock
///     func pause(attempt: Int) async throws {
///         try await clock.sleep(for: .milliseconds(100 << attempt))
///     }
/// }
/// let backoff = Backoff(clock: .system)
/// ```
public protocol EngineClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date

    /// Suspends the current task until the clock reaches `deadline`.
    ///
    /// Returns at once when the deadline has passed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws

    /// Blocks the calling thread, which holds `condition`'s lock, until the condition is
    /// signalled or the clock reaches `deadline`, as `NSCondition.wait(until:)` does.
    ///
    /// The lock is released while waiting and held again on return. As with any condition,
    /// the wait may also end spuriously: callers check their state in a loop.
    ///
    /// - Returns: `false` when the deadline was reached, else `true`.
    func wait(on condition: NSCondition, until deadline: Date) -> Bool
}

extension EngineClock {
    /// Suspends the current task for `duration` by this clock.
    ///
    /// ```swift
    /// try await clock.sleep(for: .seconds(2))
    /// ```
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().adding(duration))
    }

    /// Blocks the calling thread until the clock reaches `deadline`: the thread's
    /// `Thread.sleep`, by this clock.
    public func pause(until deadline: Date) {
        let condition = NSCondition()
        condition.lock()
        defer { condition.unlock() }
        while now() < deadline { _ = wait(on: condition, until: deadline) }
    }

    /// Blocks the calling thread for `duration` by this clock.
    public func pause(for duration: Duration) {
        pause(until: now().adding(duration))
    }

    /// How much time has passed since `start`, by this clock; never negative.
    ///
    /// ```swift
    /// let began = clock.now()
    /// try await work()
    /// print("took \(clock.elapsed(since: began))")
    /// ```
    public func elapsed(since start: Date) -> Duration {
        .seconds(max(0, now().timeIntervalSince(start)))
    }
}

extension EngineClock where Self == SystemClock {
    /// The real clock.
    public static var system: SystemClock { SystemClock() }
}

/// The real clock: `Date()`, `Task.sleep` and `NSCondition.wait(until:)`.
public struct SystemClock: EngineClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        // Sleeps by the monotonic clock, for as long as the wall clock says is left, then
        // looks again: a wall clock set forward or back moves the deadline with it.
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                try Task.checkCancellation()
                return
            }
            try await Task.sleep(for: .seconds(min(left, 3600)))
        }
    }

    public func wait(on condition: NSCondition, until deadline: Date) -> Bool {
        // Foundation on Linux traps on a deadline too far to be a timespec (`.distantFuture`):
        // a wait of more than a year is a wait without a deadline.
        guard deadline.timeIntervalSinceNow < 365 * 86_400 else {
            condition.wait()
            return true
        }
        return condition.wait(until: deadline)
    }
}

extension Date {
    /// This date moved by a duration.
    ///
    /// ```swift
    /// let deadline = clock.now().adding(.seconds(5))
    /// ```
    public func adding(_ duration: Duration) -> Date {
        addingTimeInterval(duration.timeInterval)
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    public var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}

/// The clock of the work running in this task: the real clock, unless a caller runs the work
/// with another.
///
/// Types that wait or read the time take their clock as a parameter. This task-local value
/// is for what cannot be handed one: commands, which are made by parsing their arguments, and
/// the few deep readings of "now" (an expression's `now()`, when a secret was stored) that
/// are far from any owner of a clock. A test runs such work on a manual clock like this:
///
/// ```swift
/// try await TaskClock.$current.withValue(clock) {
///     try await command.run()
/// }
/// ```
public enum TaskClock {
    /// The clock of the work running in this task.
    @TaskLocal public static var current: any EngineClock = SystemClock()
}

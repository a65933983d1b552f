#if PostgreSQL
    import Clockwork
    import Foundation
    import PostgresNIO

    /// The result of a future, set from an event loop and read by the waiting thread.
    private final class FutureOutcome<Value>: @unchecked Sendable {
        let done = NSCondition()
        var result: Result<Value, any Error>?
    }

    /// The waited future had no result in time.
    struct DeadlinePassed: Error {}

    extension EventLoopFuture {
        /// Waits for the result on this thread, but no longer than `seconds`, whatever the
        /// event loop does: a connection whose request never ends cannot block its caller.
        ///
        /// - Throws: The future's error, or ``DeadlinePassed``.
        func wait(atMost seconds: Double) throws -> Value {
            let outcome = FutureOutcome<Value>()
            whenComplete { result in
                outcome.done.withLock {
                    outcome.result = result
                    outcome.done.broadcast()
                }
            }
            let clock = PostgresStateDatabase.networkClock
            let deadline = clock.now().addingTimeInterval(seconds)
            let result = outcome.done.withLock { () -> Result<Value, any Error>? in
                while outcome.result == nil, clock.wait(on: outcome.done, until: deadline) {}
                return outcome.result
            }
            guard let result else { throw DeadlinePassed() }
            return try result.get()
        }
    }
#endif

#if PostgreSQL
    import Foundation
    import PostgresNIO

    /// The result of a future, set from an event loop and read by the waiting thread.
    private final class FutureOutcome<Value>: @unchecked Sendable {
        let lock = NSLock()
        let done = DispatchSemaphore(value: 0)
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
                outcome.lock.withLock { outcome.result = result }
                outcome.done.signal()
            }
            guard outcome.done.wait(timeout: .now() + seconds) == .success else { throw DeadlinePassed() }
            return try outcome.lock.withLock { outcome.result! }.get()
        }
    }
#endif

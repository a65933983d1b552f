import Synchronization

/// Whether a run's timeout passed: set by the timer before it cancels the run, read by the run
/// when it ends cancelled, to record itself as timed out rather than cancelled.
final class TimeoutExpiry: Sendable {
    private let expired = Mutex(false)

    /// Marks the timeout as passed.
    func expire() {
        expired.withLock { $0 = true }
    }

    /// Whether the timeout passed.
    var hasExpired: Bool { expired.withLock { $0 } }
}

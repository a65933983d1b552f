import Foundation
import WorkflowKit

/// Cancels a run when a signal (Ctrl-C, SIGTERM, SIGHUP) arrives, even if that happens before
/// the run's task exists, and remembers the first signal for the exit status.
///
/// ```swift
/// let interrupted = Interruption()
/// let watch = SignalWatch([SIGINT, SIGTERM]) { number in _ = interrupted.interrupt(by: number) }
/// interrupted.attach(Task { try await runner.run(workflow) })
/// ```
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<WorkflowRunResult, any Error>?
    private var signals: [Int32] = []

    /// The first signal received, if any.
    var signal: Int32? { lock.withLock { signals.first } }

    func attach(_ task: Task<WorkflowRunResult, any Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return !signals.isEmpty
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the run.
    ///
    /// - Parameter number: The signal received (`SIGINT` by default).
    /// - Returns: How many signals have been received, this one included.
    @discardableResult
    func interrupt(by number: Int32 = SIGINT) -> Int {
        let (task, count) = lock.withLock { () -> (Task<WorkflowRunResult, any Error>?, Int) in
            signals.append(number)
            return (self.task, signals.count)
        }
        task?.cancel()
        return count
    }
}

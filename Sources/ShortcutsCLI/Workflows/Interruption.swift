import Foundation
import WorkflowKit

/// Cancels a run when Ctrl-C is pressed, even if that happens before the run's task exists.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<WorkflowRunResult, any Error>?
    private var isInterrupted = false

    func attach(_ task: Task<WorkflowRunResult, any Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return isInterrupted
        }
        if cancelNow { task.cancel() }
    }

    func interrupt() {
        let task = lock.withLock { () -> Task<WorkflowRunResult, any Error>? in
            isInterrupted = true
            return self.task
        }
        task?.cancel()
    }
}

#if Web
    import Foundation
    import Synchronization

    /// The runs the server started and has not seen end (from the pages' forms and from
    /// webhooks): counted, and cancelled when the server stops.
    ///
    /// ```swift
    /// runs.start { _ = try? await runner.run(workflow, inputs: inputs, runID: id, isBegun: true) }
    /// await runs.cancelAll()   // when the server stops
    /// ```
    final class BackgroundRuns: Sendable {
        private let tasks = Mutex<[UUID: Task<Void, Never>]>([:])

        /// How many are still running.
        var count: Int { tasks.withLock { $0.count } }

        /// Runs work in a task of its own, kept until it ends.
        func start(_ work: @escaping @Sendable () async -> Void) {
            let key = UUID()
            // The task removes itself under the same lock, so never before it was added.
            tasks.withLock { tasks in
                tasks[key] = Task.detached { [weak self] in
                    await work()
                    _ = self?.tasks.withLock { $0.removeValue(forKey: key) }
                }
            }
        }

        /// Cancels those still running and waits until each has ended (and recorded its end).
        func cancelAll() async {
            let running = tasks.withLock { Array($0.values) }
            for task in running { task.cancel() }
            for task in running { await task.value }
        }
    }
#endif

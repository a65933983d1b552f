#if Web
    import Foundation
    import IntentKit
    import Synchronization
    import WorkflowKit

    /// Starts the runs asked for from the pages, in this process: headless (a question fails the
    /// run, with the question in its trace), recorded in the run history with the trigger
    /// `dashboard` before the page is answered, so that the run's page exists at once.
    ///
    /// At most ``DashboardConfiguration/concurrentRunLimit`` run at once; when the server stops,
    /// those still running are cancelled and recorded as cancelled.
    final class RunLauncher: Sendable {
        /// The trigger runs started from the pages are recorded with.
        static let trigger = "dashboard"

        private let configuration: DashboardConfiguration
        private let running = Mutex<[String: Task<Void, Never>]>([:])

        init(_ configuration: DashboardConfiguration) {
            self.configuration = configuration
        }

        /// How many runs started here are still running.
        var runningCount: Int { running.withLock { $0.count } }

        /// Records a run's start and runs it in the background.
        ///
        /// - Parameters:
        ///   - workflow: A valid workflow.
        ///   - inputs: Its input values, converted to their types.
        /// - Returns: The run's identifier.
        /// - Throws: ``PageError`` 429 when too many runs started here still run; the history's
        ///   error when it cannot record the start.
        func start(_ workflow: Workflow, inputs: [String: IntentValue]) async throws -> String {
            let limit = configuration.concurrentRunLimit
            guard runningCount < limit else {
                throw PageError(
                    .tooManyRequests, "\(limit) runs started from the dashboard are still running", help: ["wait for one of them to end"])
            }
            let history = configuration.history
            let recorded = (configuration.secrets?.mask() ?? .none).mask(inputs)
            let id = try await offload { try history.begin(workflow: workflow, trigger: Self.trigger, inputs: recorded) }
            let runner = WorkflowRunner(
                catalog: configuration.catalog, interaction: NoInteraction(), locale: configuration.locale, history: history,
                trigger: Self.trigger, environment: configuration.environment, secrets: configuration.secrets)
            running.withLock { running in
                running[id] = Task.detached { [weak self] in
                    _ = try? await runner.run(workflow, inputs: inputs, runID: id, isBegun: true)
                    _ = self?.running.withLock { $0.removeValue(forKey: id) }
                }
            }
            return id
        }

        /// Cancels the runs still running and waits until each has recorded its end.
        func cancelAll() async {
            let tasks = running.withLock { Array($0.values) }
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
        }
    }
#endif

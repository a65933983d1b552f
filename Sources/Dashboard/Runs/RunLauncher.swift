#if Web
    import Foundation
    import IntentKit
    import WorkflowKit

    /// Starts the runs asked for from the pages, in this process: headless (a question fails the
    /// run, with the question in its trace), recorded in the run history with the trigger
    /// `dashboard` before the page is answered, so that the run's page exists at once.
    ///
    /// At most ``DashboardConfiguration/concurrentRunLimit`` of the server's runs run at once;
    /// when the server stops, those still running are cancelled and recorded as cancelled
    /// (``BackgroundRuns``).
    final class RunLauncher: Sendable {
        /// The trigger runs started from the pages are recorded with.
        static let trigger = "dashboard"

        private let configuration: DashboardConfiguration
        private let runs: BackgroundRuns

        init(_ configuration: DashboardConfiguration, runs: BackgroundRuns) {
            self.configuration = configuration
            self.runs = runs
        }

        /// How many runs started here (from the pages or by webhooks) are still running.
        var runningCount: Int { runs.count }

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
            runs.start { _ = try? await runner.run(workflow, inputs: inputs, runID: id, isBegun: true) }
            return id
        }
    }
#endif

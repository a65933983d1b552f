import Foundation
import IntentKit

/// Runs a loaded workflow: evaluates values, performs intents (running the intents their
/// results open, unless `openWhenRun: false`), finds and filters entities, follows control
/// flow, searches indexes, asks questions through the ``Interaction``, and records a trace of
/// every step.
///
/// ```swift
/// let workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: "Workflows/add-book.yaml"))
/// let runner = WorkflowRunner(catalog: catalog, interaction: NoInteraction())
/// let result = try await runner.run(workflow, inputs: ["title": .string("Emma")])
/// print(result.output.displayText)
/// ```
public struct WorkflowRunner: Sendable {
    /// The installed apps.
    public var catalog: IntentCatalog
    /// Who answers questions.
    public var interaction: any Interaction
    /// The locale of dialogs.
    public var locale: String
    /// Receives the text of `show` steps and intents' dialogs as they happen.
    public var show: @Sendable (String) -> Void
    /// Where runs and their steps are recorded, if anywhere.
    public var history: RunHistory?
    /// What started the runs, as recorded in the history (`manual`, `automation`).
    public var trigger: String
    /// What answers `search` steps; `nil` when the program has no search (they then fail).
    public var search: (any WorkflowSearchProvider)?

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - interaction: Who answers questions.
    ///   - locale: The locale of dialogs.
    ///   - history: Where runs are recorded.
    ///   - trigger: What started the runs.
    ///   - search: What answers `search` steps; the one installed with ``WorkflowSearch/bootstrap(_:)`` when `nil`.
    ///   - show: Receives shown text.
    public init(
        catalog: IntentCatalog, interaction: any Interaction = NoInteraction(), locale: String = "en",
        history: RunHistory? = nil, trigger: String = "manual", search: (any WorkflowSearchProvider)? = nil,
        show: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.catalog = catalog
        self.interaction = interaction
        self.locale = locale
        self.history = history
        self.trigger = trigger
        self.search = search ?? WorkflowSearch.provider(for: catalog)
        self.show = show
    }

    /// Runs a workflow with input values by name.
    ///
    /// - Parameters:
    ///   - workflow: The workflow.
    ///   - inputs: Values for its inputs (text is converted to each input's declared type).
    ///   - runID: The identifier to record the run under in the ``history``, when the caller
    ///     chose it beforehand; a new one by default.
    ///   - isBegun: Whether the caller already recorded the run's start under `runID`
    ///     (``RunHistory/begin(_:trigger:)``), so that only its end is recorded here.
    /// - Returns: The output and the trace.
    /// - Throws: ``WorkflowRunError`` located at the failing step, or ``WorkflowCancelled``.
    public func run(
        _ workflow: Workflow, inputs: [String: IntentValue] = [:], runID: String? = nil,
        isBegun: Bool = false
    ) async throws -> WorkflowRunResult {
        let execution = WorkflowExecution(runner: self)
        let runID = isBegun && runID != nil ? runID : try history?.begin(workflow: workflow, trigger: trigger, id: runID)
        do {
            let output = try await execution.run(workflow, inputs: inputs, depth: 0, callers: [])
            if let runID { try history?.finish(runID, status: .succeeded, output: output, error: nil, steps: execution.trace) }
            return WorkflowRunResult(runID: runID, output: output, steps: execution.trace)
        } catch {
            if let runID {
                let status: RunHistory.Status = error is WorkflowCancelled || Task.isCancelled ? .cancelled : .failed
                let message = (error as? WorkflowRunError)?.rendered() ?? "\(error)"
                try? history?.finish(runID, status: status, output: nil, error: message, steps: execution.trace)
            }
            // A step that an intent ended early because the run was cancelled (a command
            // stopped on Ctrl-C) cancels the run, as a step between steps would.
            if Task.isCancelled && !(error is WorkflowCancelled) { throw WorkflowCancelled() }
            throw error
        }
    }
}

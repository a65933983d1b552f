import Clockwork
import Foundation
import IntentKit

/// Runs a loaded workflow: evaluates values, performs intents (running the intents their
/// results open, unless `openWhenRun: false`), finds and filters entities, follows control
/// flow, searches indexes, asks questions through the ``Interaction``, and records a trace of
/// every step.
///
/// `${env.NAME}` reads ``environment`` and `${secrets.NAME}` reads ``secrets``. Every value
/// stored there when a run starts is masked as `***` in what the run writes: the text it
/// shows, the questions it asks, its output, its trace, its history record and its error
/// (``SecretMask``).
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
    /// The environment variables `${env.NAME}` reads.
    public var environment: [String: String]
    /// The secrets `${secrets.NAME}` reads and whose values runs mask; `nil` for none.
    public var secrets: SecretStore?
    /// Whether a failed run runs its workflow's `onFailure:` steps; an automation that will
    /// try again turns it off for every attempt but the last.
    public var runsOnFailure = true
    /// Receives a run's end when the ``history`` cannot record it (its database is down), to
    /// record it later; `nil` to fail a run whose end cannot be recorded, as a terminal run does.
    ///
    /// ```swift
    /// runner.recordsLater = { record in pending.append(record) }   // written once the database answers
    /// ```
    public var recordsLater: (@Sendable (RunEndRecord) -> Void)?
    /// How long a run may take (an automation's `timeout:`): past it, the step running is
    /// cancelled and the run is recorded as failed, `timed out after …`, and throws
    /// ``WorkflowTimedOut``; `nil` for no limit.
    ///
    /// ```swift
    /// runner.timeout = .seconds(30)
    /// ```
    public var timeout: Duration?
    /// The clock runs read the time from and wait on: the run's and its steps' `timeout:`,
    /// `wait:` steps, `${now}`, and the times and durations of the trace and the metrics. The
    /// intents the steps perform read it too, as the task's clock (`TaskClock.current`).
    ///
    /// ```swift
    /// runner.clock = manualClock   // by default the task's clock, the real one unless bound
    /// ```
    public var clock: any EngineClock
    /// Where the runner's metrics go (``WorkflowMetric``): the factory in force when the runner
    /// was created.
    package var metrics: RunMetrics

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - interaction: Who answers questions.
    ///   - locale: The locale of dialogs.
    ///   - history: Where runs are recorded.
    ///   - trigger: What started the runs.
    ///   - search: What answers `search` steps; the one installed with ``WorkflowSearch/bootstrap(_:)`` when `nil`.
    ///   - environment: The variables `${env.NAME}` reads; the process's by default.
    ///   - secrets: The secrets `${secrets.NAME}` reads; those of `$SHORTCUTS_HOME` by default.
    ///   - clock: The clock of timeouts, `wait:` steps and recorded times; the task's by default.
    ///   - show: Receives shown text, with secret values masked.
    public init(
        catalog: IntentCatalog, interaction: any Interaction = NoInteraction(), locale: String = "en",
        history: RunHistory? = nil, trigger: String = "manual", search: (any WorkflowSearchProvider)? = nil,
        environment: [String: String] = ProcessEnvironment.current, secrets: SecretStore? = .standard(),
        clock: any EngineClock = TaskClock.current, show: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.catalog = catalog
        self.interaction = interaction
        self.locale = locale
        self.history = history
        self.trigger = trigger
        self.search = search ?? WorkflowSearch.provider(for: catalog)
        self.environment = environment
        self.secrets = secrets
        self.clock = clock
        self.show = show
        metrics = RunMetrics()
    }

    /// Runs a workflow with input values by name.
    ///
    /// - Parameters:
    ///   - workflow: The workflow.
    ///   - inputs: Values for its inputs (text is converted to each input's declared type).
    ///   - runID: The identifier to record the run under in the ``history``, when the caller
    ///     chose it beforehand; a new one by default.
    ///   - isBegun: Whether the caller already recorded the run's start under `runID`
    ///     (``RunHistory/begin(_:trigger:)``), so that only its end is recorded here; otherwise
    ///     its start is recorded with the inputs given.
    /// - Returns: The output and the trace, with secret values masked.
    /// - Throws: ``WorkflowRunError`` located at the failing step (with secret values masked),
    ///   ``WorkflowCancelled``, or ``WorkflowTimedOut`` past the ``timeout``.
    public func run(
        _ workflow: Workflow, inputs: [String: IntentValue] = [:], runID: String? = nil,
        isBegun: Bool = false
    ) async throws -> WorkflowRunResult {
        guard let timeout else { return try await perform(workflow, inputs: inputs, runID: runID, isBegun: isBegun, expiry: nil) }
        let expiry = TimeoutExpiry()
        // The deadline is fixed before either task starts: a timer task that a busy machine starts
        // late still ends the run when the timeout has passed since the run began.
        let clock = self.clock
        let deadline = clock.now().adding(timeout)
        return try await withThrowingTaskGroup(of: WorkflowRunResult?.self) { group in
            group.addTask { try await perform(workflow, inputs: inputs, runID: runID, isBegun: isBegun, expiry: expiry) }
            group.addTask {
                try? await clock.sleep(until: deadline)
                if !Task.isCancelled { expiry.expire() }
                return nil
            }
            // The timer's end cancels the run, which records itself and throws; the run's end
            // stops the timer.
            while let next = try await group.next() {
                group.cancelAll()
                if let result = next { return result }
            }
            throw WorkflowCancelled()
        }
    }

    /// Runs a workflow and records its end, as failed past the timeout once `expiry` expired.
    private func perform(
        _ workflow: Workflow, inputs: [String: IntentValue], runID: String?, isBegun: Bool, expiry: TimeoutExpiry?
    ) async throws -> WorkflowRunResult {
        let environment = RunEnvironment(variables: self.environment, store: secrets)
        let mask = environment.mask
        let execution = WorkflowExecution(runner: masking(with: mask), environment: environment)
        let runID = isBegun && runID != nil ? runID : try history?.begin(workflow: workflow, trigger: trigger, id: runID, inputs: mask.mask(inputs))
        let started = clock.now()
        do {
            // The intents the steps perform read the time by the task's clock: this run's.
            let output = try await TaskClock.$current.withValue(clock) {
                mask.mask(try await execution.run(workflow, inputs: inputs, depth: 0, callers: []))
            }
            let steps = execution.trace.map { mask.mask($0) }
            metrics.recordRunDuration(clock.elapsed(since: started), trigger: trigger)
            try recordEnd(of: runID, status: .succeeded, output: output, error: nil, steps: steps)
            return WorkflowRunResult(runID: runID, output: output, steps: steps)
        } catch {
            metrics.recordRunDuration(clock.elapsed(since: started), trigger: trigger)
            let error = mask.mask(error)
            let isCancelled = error is WorkflowCancelled || Task.isCancelled
            let timedOut = isCancelled && expiry?.hasExpired == true ? WorkflowTimedOut(limit: timeout ?? .zero) : nil
            let status: RunHistory.Status = isCancelled && timedOut == nil ? .cancelled : .failed
            let message = timedOut?.description ?? (error as? WorkflowRunError)?.rendered() ?? "\(error)"
            try? recordEnd(of: runID, status: status, output: nil, error: message, steps: execution.trace.map { mask.mask($0) })
            if let timedOut { throw timedOut }
            // A step that an intent ended early because the run was cancelled (a command
            // stopped on Ctrl-C) cancels the run, as a step between steps would.
            if Task.isCancelled && !(error is WorkflowCancelled) { throw WorkflowCancelled() }
            throw error
        }
    }

    /// Records a run's end in the history, or hands it to ``recordsLater`` when the history
    /// cannot be written now; without a history, counts it in the metrics itself (a history
    /// counts the runs it records as ended).
    private func recordEnd(
        of runID: String?, status: RunHistory.Status, output: IntentValue?, error: String?, steps: @autoclosure () -> [StepTrace]
    ) throws {
        guard let history, let runID else {
            metrics.recordEnded(status, trigger: trigger)
            return
        }
        let end = RunEndRecord(runID: runID, status: status, output: output, error: error, steps: steps(), trigger: trigger)
        do {
            try history.finish(end.runID, status: end.status, output: end.output, error: end.error, steps: end.steps, trigger: trigger)
        } catch {
            guard let recordsLater else { throw error }
            recordsLater(end)
        }
    }

    /// This runner with what it shows and asks masked.
    private func masking(with mask: SecretMask) -> WorkflowRunner {
        guard !mask.isEmpty else { return self }
        var masked = self
        let show = self.show
        masked.show = { text in show(mask.mask(text)) }
        masked.interaction = MaskingInteraction(base: interaction, mask: mask)
        return masked
    }
}

/// How a run ended, as ``RunHistory/finish(_:status:output:error:steps:)`` records it: what a
/// ``WorkflowRunner`` hands to ``WorkflowRunner/recordsLater`` when the history's database
/// cannot be written at the moment.
public struct RunEndRecord: Sendable {
    public var runID: String
    public var status: RunHistory.Status
    public var output: IntentValue?
    public var error: String?
    public var steps: [StepTrace]
    /// What started the run (its runner's ``WorkflowRunner/trigger``), for the metrics.
    public var trigger: String?

    public init(runID: String, status: RunHistory.Status, output: IntentValue?, error: String?, steps: [StepTrace], trigger: String? = nil) {
        self.runID = runID
        self.status = status
        self.output = output
        self.error = error
        self.steps = steps
        self.trigger = trigger
    }
}

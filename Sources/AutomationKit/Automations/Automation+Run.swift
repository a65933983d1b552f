import Clockwork
import Foundation
import IntentKit
import WorkflowKit

/// Running an automation's workflow the way the daemon does: headless, within its timeout.
extension Automation {
    /// How one attempt ended.
    enum AttemptOutcome {
        case succeeded(IntentValue)
        case failed(String)
        case timedOut
        case cancelled
    }

    /// Runs the workflow once, headless (a question fails the run, with the question in its
    /// trace), recorded under `runID`, cancelled and recorded as failed after `timeout:`.
    /// `${secrets.NAME}` reads `secrets`, whose values are masked in the trace, the history,
    /// the error and what `show` receives, as in any run. The run's metrics go to `metrics`,
    /// the daemon's; to the factory in force now when `nil`.
    func attempt(
        _ workflow: Workflow, inputs: [String: IntentValue] = [:], runID: String, isBegun: Bool = false, catalog: IntentCatalog,
        history: RunHistory?,
        secrets: SecretStore?, locale: String, trigger: String, isLast: Bool = true, clock: any EngineClock = .system,
        recordsLater: (@Sendable (RunEndRecord) -> Void)? = nil, metrics: RunMetrics? = nil, show: @escaping @Sendable (String) -> Void
    ) async -> AttemptOutcome {
        var runner = WorkflowRunner(
            catalog: catalog, interaction: NoInteraction(), locale: locale,
            history: history, trigger: trigger, secrets: secrets, show: show)
        runner.recordsLater = recordsLater
        // `onFailure:` runs once, after the last attempt.
        runner.runsOnFailure = isLast
        // Past `timeout:` the run is cancelled and recorded as failed, `timed out after …`.
        runner.timeout = timeout
        runner.clock = clock
        if let metrics { runner.metrics = metrics }
        do {
            return .succeeded(try await runner.run(workflow, inputs: inputs, runID: runID, isBegun: isBegun).output)
        } catch is WorkflowTimedOut {
            return .timedOut
        } catch {
            if error is WorkflowCancelled || error is CancellationError || Task.isCancelled { return .cancelled }
            if let error = error as? WorkflowRunError { return .failed(error.rendered()) }
            return .failed("\(error)")
        }
    }

    /// How a run started with ``runNow(inputs:trigger:workflow:catalog:history:secrets:locale:show:started:recordsLater:)`` ended.
    public struct RunOutcome: Sendable {
        /// How the last attempt ended: `succeeded`, `failed`, `timedOut` or `cancelled`.
        public var status: Claim.Status
        /// The output, when the run succeeded.
        public var output: IntentValue?
        /// The last attempt's error (rendered, located), when it did not succeed.
        public var error: String?
        /// Every attempt's run id, first to last; empty when the workflow did not load, or its
        /// start could not be recorded.
        public var runIDs: [String]

        /// Creates an outcome.
        public init(status: Claim.Status, output: IntentValue? = nil, error: String? = nil, runIDs: [String] = []) {
            self.status = status
            self.output = output
            self.error = error
            self.runIDs = runIDs
        }
    }

    /// Runs the automation once, now, as the daemon would run a due time — headless, within
    /// its `timeout:`, with its `retry:`, secrets masked — but without a due time: nothing is
    /// claimed, and `overlap:` does not apply. Each attempt is a run of the run history,
    /// recorded with `trigger` and the inputs; `started` learns each run's id as soon as its
    /// start is recorded, so that a server can answer at once with the first one, and the
    /// outcome comes when the last attempt ends.
    ///
    /// ```swift
    /// let outcome = await automation.runNow(
    ///     inputs: ["title": .string("Emma")], trigger: "webhook", catalog: catalog, history: try RunHistory.shared(),
    ///     started: { runID, attempt in if attempt == 1 { accepted(runID) } })
    /// print(outcome.status, outcome.runIDs)
    ///
    /// let manual = await automation.runNow(catalog: catalog, history: history) { shown in print(shown) }
    /// ```
    ///
    /// - Parameters:
    ///   - inputs: The input values; checked by the run as `shortcuts run` checks them
    ///     (``WorkflowKit/Workflow/checkInputs(_:catalog:)`` checks them before).
    ///   - trigger: What the run history records as the trigger: `manual` by default,
    ///     `webhook`, `file`.
    ///   - workflow: The workflow, when the caller loaded it with ``loadWorkflow(catalog:)``
    ///     already; otherwise the file is read and validated again.
    ///   - catalog: The installed apps.
    ///   - history: Where to record each attempt, if anywhere.
    ///   - secrets: What `${secrets.NAME}` reads and every run masks; those of `$SHORTCUTS_HOME` by default.
    ///   - locale: The locale of dialogs.
    ///   - show: Receives the text the workflow shows, and a line per failed attempt.
    ///   - started: Called once per attempt, with its run's id and its number from 1, once the
    ///     run is recorded as started (before it runs).
    ///   - recordsLater: Receives a run's end when the history cannot record it now, to record
    ///     it later; `nil` to leave it unrecorded.
    ///   - clock: What the backoff between attempts and the `timeout:` are measured by.
    /// - Returns: How the last attempt ended, its output or its error, and every attempt's run
    ///   id. A workflow that no longer loads fails without a run.
    public func runNow(
        inputs: [String: IntentValue] = [:], trigger: String = "manual", workflow: Workflow? = nil,
        catalog: IntentCatalog, history: RunHistory?, secrets: SecretStore? = .standard(), locale: String = "en",
        show: @escaping @Sendable (String) -> Void = { _ in },
        started: @escaping @Sendable (_ runID: String, _ attempt: Int) -> Void = { _, _ in },
        recordsLater: (@Sendable (RunEndRecord) -> Void)? = nil, clock: any EngineClock = .system
    ) async -> RunOutcome {
        let loaded: Workflow
        if let workflow {
            loaded = workflow
        } else {
            do {
                loaded = try loadWorkflow(catalog: catalog)
            } catch {
                return RunOutcome(status: .failed, error: error.rendered())
            }
        }
        let recordedInputs = (secrets?.mask() ?? .none).mask(inputs)
        var runIDs: [String] = []
        var lastError: String?
        for attempt in 1...attempts {
            if attempt > 1, let backoff {
                do { try await clock.sleep(for: backoff) } catch { return RunOutcome(status: .cancelled, error: lastError, runIDs: runIDs) }
            }
            let runID = DaemonEngine.newRunID()
            if let history {
                do {
                    _ = try history.begin(workflow: loaded, trigger: trigger, id: runID, inputs: recordedInputs)
                } catch {
                    return RunOutcome(status: .failed, error: "cannot record the start of the run in the run history: \(error)", runIDs: runIDs)
                }
            }
            runIDs.append(runID)
            started(runID, attempt)
            let outcome = await self.attempt(
                loaded, inputs: inputs, runID: runID, isBegun: history != nil, catalog: catalog, history: history, secrets: secrets,
                locale: locale, trigger: trigger, isLast: attempt == attempts, clock: clock, recordsLater: recordsLater, show: show)
            var output: IntentValue?
            switch outcome {
            case .succeeded(let value): output = value
            case .cancelled: lastError = "the run was cancelled"
            case .timedOut: lastError = "timed out after \(DaemonEngine.format(timeout ?? .zero))"
            case .failed(let message): lastError = message
            }
            switch AttemptDecision(after: outcome, attempt: attempt, of: attempts, backoff: backoff) {
            case .end(.succeeded):
                return RunOutcome(status: .succeeded, output: output, runIDs: runIDs)
            case .end(let status):
                return RunOutcome(status: status, error: lastError, runIDs: runIDs)
            case .retry(let wait):
                show(
                    "attempt \(attempt) of \(attempts) failed: \(lastError?.split(separator: "\n").first ?? ""); trying again"
                        + (wait.map { " in \(DaemonEngine.format($0))" } ?? ""))
            }
        }
        return RunOutcome(status: .failed, error: lastError, runIDs: runIDs)
    }
}

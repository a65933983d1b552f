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
        secrets: SecretStore?, locale: String, trigger: String, isLast: Bool = true,
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

    /// Reads the workflow file, then runs it once, now, as the daemon would run a due time — headless, within
    /// its `timeout:`, with its `retry:`, reading the secrets of `$SHORTCUTS_HOME` — but without a
    /// due time: nothing is claimed, and the daemon's overlap policy does not apply.
    ///
    /// ```swift
    /// let result = await automation.runNow(catalog: catalog, history: try RunHistory.shared()) { print($0) }
    /// print(result.status, result.runIDs)
    /// ```
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - history: Where to record each attempt, if anywhere.
    ///   - locale: The locale of dialogs.
    ///   - trigger: What the run history records as the trigger; `manual` by default.
    ///   - show: Receives the text the workflow shows, and a line per failed attempt.
    /// - Returns: How the last attempt ended, its output when it succeeded, its error when it
    ///   failed, and every attempt's run id.
    public func runNow(
        catalog: IntentCatalog, history: RunHistory?, locale: String = "en", trigger: String = "manual",
        show: @escaping @Sendable (String) -> Void = { _ in }
    ) async -> (status: Claim.Status, output: IntentValue?, error: String?, runIDs: [String]) {
        let workflow: Workflow
        do {
            workflow = try loadWorkflow(catalog: catalog)
        } catch {
            return (.failed, nil, error.rendered(), [])
        }
        var runIDs: [String] = []
        var lastError: String?
        for attempt in 1...attempts {
            if attempt > 1, let backoff {
                do { try await Task.sleep(for: backoff) } catch { return (.cancelled, nil, lastError, runIDs) }
            }
            let runID = DaemonEngine.newRunID()
            runIDs.append(runID)
            let outcome = await self.attempt(
                workflow, runID: runID, catalog: catalog, history: history, secrets: .standard(), locale: locale, trigger: trigger,
                isLast: attempt == attempts, show: show)
            switch outcome {
            case .succeeded(let output):
                return (.succeeded, output, nil, runIDs)
            case .cancelled:
                return (.cancelled, nil, "the run was cancelled", runIDs)
            case .timedOut:
                lastError = "timed out after \(DaemonEngine.format(timeout ?? .zero))"
                if attempt == attempts { return (.timedOut, nil, lastError, runIDs) }
            case .failed(let message):
                lastError = message
                if attempt == attempts { return (.failed, nil, lastError, runIDs) }
            }
            show(
                "attempt \(attempt) of \(attempts) failed: \(lastError?.split(separator: "\n").first ?? ""); trying again"
                    + (backoff.map { " in \(DaemonEngine.format($0))" } ?? ""))
        }
        return (.failed, nil, lastError, runIDs)
    }
}

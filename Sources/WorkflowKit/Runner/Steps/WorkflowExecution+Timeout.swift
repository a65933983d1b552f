import Clockwork
import Foundation
import IntentKit

extension WorkflowExecution {
    /// What a step run under a timeout did, returned from its task.
    private struct TimedOutcome: Sendable {
        var output: IntentValue?
        var failure: (any Error)?
        var scope: RunScope
        var record: StepTrace
        var trace: [StepTrace]
    }

    /// Runs a step with `timeout:` in a task of its own, racing the timeout: past it the step's
    /// task is cancelled (which ends an intent, an extension's or MCP server's call, a nested
    /// workflow or a loop), and the step fails at its `timeout:` once the task has ended.
    ///
    /// ```yaml
    /// - perform: Pantry.Restock
    ///   timeout: 10s
    /// ```
    func execute(
        _ step: Step, within timeout: Located<Duration>, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame
    ) async throws -> IntentValue? {
        let runner = self.runner
        let environment = self.environment
        let sources = self.sources
        let startScope = scope
        let startRecord = record
        // Fixed before either task starts, so that a timer task started late by a busy machine
        // still counts from the step's start.
        let clock = self.clock
        let deadline = clock.now().adding(timeout.value)
        let outcome: TimedOutcome? = await withTaskGroup(of: TimedOutcome?.self) { group in
            group.addTask {
                let execution = WorkflowExecution(runner: runner, environment: environment)
                execution.sources = sources
                var stepScope = startScope
                var stepRecord = startRecord
                var outcome = TimedOutcome(scope: startScope, record: startRecord, trace: [])
                do {
                    outcome.output = try await execution.execute(step, in: &stepScope, record: &stepRecord, frame: frame)
                } catch {
                    outcome.failure = error
                }
                outcome.scope = stepScope
                outcome.record = stepRecord
                outcome.trace = execution.trace
                return outcome
            }
            group.addTask {
                // Ends early only when the step is done (or the run cancelled): then it is not a timeout.
                try? await clock.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            // The timeout came first: the step's task has been cancelled; wait for it to end.
            while let next = await group.next() {
                if var ended = next {
                    if !Task.isCancelled { ended.failure = TimeoutExpired() }
                    return ended
                }
            }
            return nil
        }
        guard let outcome else { throw WorkflowCancelled() }
        trace.append(contentsOf: outcome.trace)
        scope = outcome.scope
        record.inputs = outcome.record.inputs
        record.dialog = outcome.record.dialog
        record.details = outcome.record.details
        if outcome.failure is TimeoutExpired {
            throw WorkflowRunError(
                "the step did not end within its timeout of \(DurationSyntax.describe(timeout.value)), so it was cancelled",
                at: timeout.location, sources: sources)
        }
        if let failure = outcome.failure { throw failure }
        return outcome.output
    }

    /// The marker of a step cancelled by its timeout.
    private struct TimeoutExpired: Error {}
}

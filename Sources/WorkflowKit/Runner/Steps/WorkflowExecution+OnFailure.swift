import Foundation
import IntentKit

extension WorkflowExecution {
    /// Runs the workflow's `onFailure:` steps after a step failed the run, with `${error}`
    /// (as in `catch:`) and the variables set so far, and returns the error the run fails
    /// with. Only the workflow the run started with does so (not one run by `run:`), only
    /// when ``WorkflowRunner/runsOnFailure``, and never for a cancelled run.
    ///
    /// The trace shows an `onFailure` entry, with the error as its input, before the steps it
    /// ran. When `onFailure:` fails too, the run fails with the first error, and its help says
    /// `onFailure failed too:` with the second error's location and message; `onFailure:` is
    /// never run again.
    ///
    /// ```yaml
    /// onFailure:
    ///   - perform: Notify.Show
    ///     with: { title: Backup failed, body: "${error.message}" }
    /// ```
    func runOnFailure(after error: any Error, in scope: inout RunScope, frame: StepFrame) async -> any Error {
        guard frame.depth == 0, runner.runsOnFailure, let onFailure = frame.workflow.onFailure, Self.isCatchable(error),
            !Task.isCancelled
        else { return error }
        let caught = errorValue(error, tracedFrom: 0, at: onFailure.location)
        let started = clock.now()
        var record = StepTrace(
            kind: "onFailure", stepID: nil, location: onFailure.location, depth: 0, inputs: ["error": caught], output: nil,
            dialog: nil, startedAt: started, duration: .zero, error: nil)
        let traceIndex = trace.count
        trace.append(record)
        defer {
            record.duration = clock.elapsed(since: started)
            trace[traceIndex] = record
        }
        scope.assign(caught, to: "error")
        do {
            _ = try await execute(onFailure.value, in: &scope, frame: frame.inside)
            return error
        } catch is Stop {
            return error
        } catch let failure {
            let second = (failure as? WorkflowRunError)?.diagnostic
            let secondText =
                second.map { "\($0.location.file):\($0.location.line):\($0.location.column): \($0.message)" } ?? "\(failure)"
            record.error = second?.message ?? "\(failure)"
            return Self.adding("onFailure failed too: " + secondText, to: error)
        }
    }

    /// The first error of a run, with a line added to its help.
    private static func adding(_ note: String, to error: any Error) -> any Error {
        guard var located = error as? WorkflowRunError else { return WorkflowFailure(text: "\(error)\n\(note)") }
        located.diagnostic.help = located.diagnostic.help.map { $0 + "\n" + note } ?? note
        return located
    }
}

/// A failure that is not located, with what happened after it.
struct WorkflowFailure: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

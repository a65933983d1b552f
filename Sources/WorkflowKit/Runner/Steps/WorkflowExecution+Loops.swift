import IntentKit

/// Thrown by a `break` or `continue` step and caught by the innermost `repeat`.
enum LoopSignal: Error {
    case `break`, `continue`
}

extension WorkflowExecution {
    /// `repeat: { while: … }` checks its condition before each pass; `repeat: { until: … }`
    /// after each pass. Either fails at the `repeat` when it would make more than
    /// `maxIterations:` passes (10,000 by default). The trace records the passes made as
    /// `iterations`.
    ///
    /// ```yaml
    /// - repeat: { until: { value: ${answer.status}, equalTo: 0 }, maxIterations: 5 }
    ///   steps:
    ///     - perform: Shell.RunScript
    ///       with: { script: ${check} }
    ///       id: answer
    /// ```
    func executeConditional(_ loop: RepeatStep, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws
        -> IntentValue
    {
        let maxIterations = loop.maxIterations?.value ?? RepeatStep.defaultMaxIterations
        let conditions = ConditionEvaluator(values: values)
        var outputs: [IntentValue] = []
        var passes = 0
        defer { record.inputs["iterations"] = .int(passes) }
        record.inputs["maxIterations"] = .int(maxIterations)
        while true {
            if case .while(let condition) = loop.mode, try !conditions.holds(condition, element: nil, in: scope) { break }
            guard passes < maxIterations else {
                throw WorkflowRunError(
                    "'repeat' did not end after \(maxIterations) passes (its 'maxIterations')", at: record.location,
                    help: loop.maxIterations == nil
                        ? "check that its condition can change, or raise the limit with 'maxIterations:'"
                        : "check that its condition can change, or raise 'maxIterations'",
                    sources: sources)
            }
            passes += 1
            scope.index = .int(passes)
            guard try await executePass(loop.steps, in: &scope, frame: frame, into: &outputs) else { break }
            if case .until(let condition) = loop.mode, try conditions.holds(condition, element: nil, in: scope) { break }
        }
        return .list(outputs)
    }

    /// Runs one pass of a loop's steps and appends its output: the last step's, or null
    /// when a `continue` ended the pass. Returns `false` when a `break` ended the loop.
    func executePass(_ steps: [Step], in scope: inout RunScope, frame: StepFrame, into outputs: inout [IntentValue]) async throws -> Bool {
        do {
            outputs.append(try await execute(steps, in: &scope, frame: frame))
            return true
        } catch LoopSignal.continue {
            outputs.append(.null)
            return true
        } catch LoopSignal.break {
            return false
        }
    }
}

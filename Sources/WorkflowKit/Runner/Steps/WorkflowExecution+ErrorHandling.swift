import IntentKit

extension WorkflowExecution {
    /// `try:` runs its steps; when one fails, `catch:` runs with `${error}` and the error is
    /// recorded as the `try` step's `caught` input; `finally:` runs afterwards in every case but
    /// cancellation. An error in `catch:` or `finally:` fails the `try` step.
    ///
    /// ```yaml
    /// - try: [ { perform: Shell.RunScript, with: { script: "false" } } ]
    ///   catch: [ { show: "${error.step} failed: ${error.message}" } ]
    /// ```
    func execute(_ block: TryStep, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        let inside = frame.inside
        let traceStart = trace.count
        var output: IntentValue
        do {
            output = try await execute(block.steps, in: &scope, frame: inside)
        } catch let error where Self.isCatchable(error) {
            guard let catchSteps = block.catchSteps else {
                try await executeFinally(block, in: &scope, frame: inside)
                throw error
            }
            let caught = errorValue(error, tracedFrom: traceStart, at: record.location)
            record.inputs["caught"] = caught
            let saved = scope["error"]
            scope.assign(caught, to: "error")
            do {
                output = try await execute(catchSteps, in: &scope, frame: inside)
            } catch let failure where !(failure is WorkflowCancelled) {
                try await executeFinally(block, in: &scope, frame: inside)
                throw failure
            }
            if let saved { scope.assign(saved, to: "error") }
        } catch let signal where !(signal is WorkflowCancelled) {
            // A `stop`, `break` or `continue` leaves the block after its `finally:`.
            try await executeFinally(block, in: &scope, frame: inside)
            throw signal
        }
        try await executeFinally(block, in: &scope, frame: inside)
        return output
    }

    private func executeFinally(_ block: TryStep, in scope: inout RunScope, frame: StepFrame) async throws {
        guard let finallySteps = block.finallySteps else { return }
        _ = try await execute(finallySteps, in: &scope, frame: frame)
    }

    /// Whether `try:` catches an error: any failure, but not a `stop`, a `break`, a `continue`
    /// or the cancellation of the run.
    static func isCatchable(_ error: any Error) -> Bool {
        !(error is Stop || error is LoopSignal || error is WorkflowCancelled || error is CancellationError)
    }

    /// `${error}`: `message`, `step` (the id of the step that failed, or its kind) and
    /// `location` (`file:line:column`), read from the last step traced with an error.
    func errorValue(_ error: any Error, tracedFrom start: Int, at fallback: SourceLocation) -> IntentValue {
        let failed = trace[min(start, trace.count)...].last { $0.error != nil }
        let diagnostic = (error as? WorkflowRunError)?.diagnostic
        let location = diagnostic?.location ?? failed?.location ?? fallback
        return .dictionary([
            "message": .string(diagnostic?.message ?? failed?.error ?? "\(error)"),
            "step": .string(failed.map { $0.stepID ?? $0.kind } ?? "try"),
            "location": .string("\(location.file):\(location.line):\(location.column)")
        ])
    }
}

extension WorkflowExecution {
    /// After a step with `continueOnError: true` failed: its output is `null`, `${id.error}`
    /// holds the error and the trace marks the step `continued`. Returns the step's output.
    func continueAfter(_ error: any Error, of step: Step, record: inout StepTrace, tracedFrom start: Int, in scope: inout RunScope)
        -> IntentValue
    {
        // The step's own record is not in the trace yet unless it contains steps.
        let failure: IntentValue
        if step.kind.containsSteps {
            trace[start] = record
            failure = errorValue(error, tracedFrom: start, at: step.location)
        } else {
            trace.append(record)
            failure = errorValue(error, tracedFrom: start, at: step.location)
            trace.removeLast()
        }
        record.output = .null
        record.details["continued"] = .bool(true)
        if let id = step.id?.value {
            scope.assign(.null, to: id)
            scope.assign(failure, to: id + ".error")
        }
        scope.previous = .null
        return .null
    }
}

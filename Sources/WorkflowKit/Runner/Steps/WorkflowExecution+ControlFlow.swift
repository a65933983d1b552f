import IntentKit

extension WorkflowExecution {
    /// `if:` runs `then:` when the condition holds, `else:` otherwise.
    ///
    /// ```yaml
    /// - if: { value: "${total}", greaterThan: 0 }
    ///   then: [ { show: Some } ]
    ///   else: [ { stop: Nothing found } ]
    /// ```
    func execute(_ branch: IfStep, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        let holds = try ConditionEvaluator(values: values).holds(branch.condition, element: nil, in: scope)
        record.inputs = ["condition": .bool(holds)]
        return try await execute(holds ? branch.thenSteps : branch.elseSteps, in: &scope, frame: frame.inside)
    }

    /// `repeat:` runs its steps `count:` times, once per element of `each:`, or while or until
    /// a condition holds (`WorkflowExecution+Loops.swift`), with `${index}` counting from 1;
    /// outputs the list of each pass's last output.
    ///
    /// ```yaml
    /// - repeat: { each: "${recent}", as: book }
    ///   steps: [ { show: "${index}. ${book.title}" } ]
    /// ```
    func execute(_ loop: RepeatStep, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        var outputs: [IntentValue] = []
        let savedIndex = scope.index
        defer { scope.index = savedIndex }
        let inside = frame.inside
        switch loop.mode {
        case .while, .until:
            return try await executeConditional(loop, in: &scope, record: &record, frame: inside)
        case .count(let node):
            let count = try limit(node, in: scope)
            record.inputs = ["count": .int(count)]
            guard count <= RepeatStep.maximumCount else {
                throw WorkflowRunError(RepeatStep.countProblem(count), at: node.location, help: RepeatStep.countHelp, sources: sources)
            }
            outputs.reserveCapacity(count)
            for index in 0..<count {
                scope.index = .int(index + 1)
                guard try await executePass(loop.steps, in: &scope, frame: inside, into: &outputs) else { break }
            }
        case .each(let node, _):
            let list = try values.evaluate(node, in: scope)
            record.inputs = ["each": list]
            if let concurrency = loop.concurrency {
                return try await execute(loop, over: list, concurrency: concurrency, in: &scope, frame: frame)
            }
            for (index, element) in list.elements.enumerated() {
                scope.index = .int(index + 1)
                scope.assign(element, to: loop.itemName)
                guard try await executePass(loop.steps, in: &scope, frame: inside, into: &outputs) else { break }
            }
        }
        return .list(outputs)
    }

    /// `menu:` asks which option to take and runs its steps.
    ///
    /// ```yaml
    /// - menu: What next?
    ///   options:
    ///     Open my shelf: [ { perform: Library.OpenShelf } ]
    ///     Nothing: []
    /// ```
    func execute(_ menu: MenuStep, of step: Step, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        let prompt = try values.evaluate(menu.prompt, in: scope).displayText
        let titles = menu.options.map(\.title.value)
        let choice: Int
        do {
            choice = try await runner.interaction.requestChoice(ChoiceRequest(name: step.id?.value ?? "menu", question: prompt, options: titles))
        } catch let error as InteractionError {
            throw WorkflowRunError(error.description, at: step.location, sources: sources, cause: error)
        }
        record.inputs = ["choice": .string(titles[choice])]
        return try await execute(menu.options[choice].steps, in: &scope, frame: frame.inside)
    }

    /// `wait:` pauses, by the runner's ``WorkflowRunner/clock``; cancelling the run ends the wait.
    ///
    /// ```yaml
    /// - wait: 1s
    /// ```
    func execute(_ wait: WaitStep) async throws -> IntentValue? {
        do {
            try await clock.sleep(for: wait.duration.value)
        } catch {
            throw WorkflowCancelled()
        }
        return nil
    }

    /// `stop:` ends the workflow, with an output.
    ///
    /// ```yaml
    /// - stop: Nothing found
    /// ```
    func execute(_ stop: StopStep, in scope: RunScope) throws -> IntentValue? {
        let output = try stop.output.map { try values.evaluate($0, in: scope) } ?? .null
        throw Stop(output: output)
    }

    /// `fail:` fails the run at this step with its message; `data:` goes in the step's trace.
    ///
    /// ```yaml
    /// - fail: "no invoice in ${input.folder}"
    ///   data: ${listing}
    /// ```
    func execute(_ fail: FailStep, at location: SourceLocation, in scope: RunScope, record: inout StepTrace) throws -> IntentValue? {
        let message = try values.evaluate(fail.message, in: scope).displayText
        record.inputs["message"] = .string(message)
        if let data = fail.data { record.inputs["data"] = try values.evaluate(data, in: scope) }
        throw WorkflowRunError(message, at: location, sources: sources)
    }
}

import IntentKit

extension WorkflowExecution {
    /// `ask:` asks a question, converts the answer to the declared type, and falls back on
    /// `default:` when nobody can answer.
    ///
    /// ```yaml
    /// - id: copies
    ///   ask: How many copies?
    ///   type: Int
    ///   default: 1
    /// ```
    func execute(_ ask: AskStep, of step: Step, in scope: RunScope) async throws -> IntentValue {
        if let choices = ask.choices { return try await choose(from: choices, for: ask, of: step, in: scope) }
        let values = self.values
        let question = try values.evaluate(ask.question, in: scope).displayText
        let type = ask.answerType.flatMap { InputTypes.type(named: $0.value, in: runner.catalog) } ?? .string
        var answer: IntentValue
        do {
            answer = try await runner.interaction.requestValue(ValueRequest(name: step.id?.value ?? "ask", question: question, type: type))
        } catch let error as InteractionError {
            guard let defaultAnswer = ask.defaultAnswer else {
                throw WorkflowRunError(error.description, at: step.location, sources: sources, cause: error)
            }
            answer = try values.evaluate(defaultAnswer, in: scope)
        }
        return try await convert(answer, to: type, name: step.id?.value ?? "ask", at: step.location)
    }
}

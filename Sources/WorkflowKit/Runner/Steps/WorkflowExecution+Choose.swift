import IntentKit

extension WorkflowExecution {
    /// `ask:` with `choose:` offers the elements of a list, labelled by their display
    /// representations, and outputs the element chosen; with `multiple: true`, the list of the
    /// elements chosen, in the list's order.
    ///
    /// An answer names an option by its label (exactly, then ignoring case) or its number from 1;
    /// several answers are separated by commas (`--answer book=Emma,Persuasion`), unless the whole
    /// answer is one label.
    ///
    /// ```yaml
    /// - id: book
    ///   ask: Which book?
    ///   choose: ${books}
    /// ```
    func choose(from node: ValueNode, for ask: AskStep, of step: Step, in scope: RunScope) async throws -> IntentValue {
        let values = self.values
        let name = step.id?.value ?? "ask"
        let question = try values.evaluate(ask.question, in: scope).displayText
        let list = try values.evaluate(node, in: scope)
        guard case .list(let elements) = list else {
            throw WorkflowRunError("'choose' needs a list, got \(list.kindName) '\(list.displayText)'", at: node.location, sources: sources)
        }
        guard !elements.isEmpty else {
            throw WorkflowRunError("there is nothing to choose from: the list is empty", at: node.location, sources: sources)
        }
        let labels = elements.map(\.displayText)
        do {
            guard ask.multiple else {
                let index = try await runner.interaction.requestChoice(ChoiceRequest(name: name, question: question, options: labels))
                return elements[index]
            }
            let options = labels.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
            let answer = try await runner.interaction.requestValue(
                ValueRequest(name: name, question: question + " (separate several with commas)\n" + options, type: .string))
            let chosen = try Self.indexes(answering: answer.displayText, in: labels, name: name)
            return .list(chosen.sorted().map { elements[$0] })
        } catch let error as InteractionError {
            guard let defaultAnswer = ask.defaultAnswer else {
                throw WorkflowRunError(error.description, at: step.location, sources: sources, cause: error)
            }
            return try values.evaluate(defaultAnswer, in: scope)
        }
    }

    /// The options an answer names: the whole answer as one label, or its comma-separated parts.
    static func indexes(answering answer: String, in labels: [String], name: String) throws -> Set<Int> {
        if let whole = ChoiceMatching.index(of: answer, in: labels) { return [whole] }
        var chosen: Set<Int> = []
        for part in answer.split(separator: ",") {
            guard let index = ChoiceMatching.index(of: String(part), in: labels) else {
                throw InteractionError.invalidAnswer(
                    name: name, answer: String(part).trimmingCharacters(in: .whitespaces),
                    reason: "choose among " + labels.map { "'\($0)'" }.joined(separator: ", "))
            }
            chosen.insert(index)
        }
        return chosen
    }
}

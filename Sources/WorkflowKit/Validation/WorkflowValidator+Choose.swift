import IntentKit

extension ValidationPass {
    /// Checks an `ask` with `choose:`: the offered value must be a list, and a headless run must
    /// be given the answer or have a default. The answer's type is the list's element type (a
    /// list of them with `multiple: true`).
    mutating func choose(from choices: ValueNode, for ask: AskStep, of step: Step) -> IntentValueType? {
        _ = type(of: ask.question)
        let listType = type(of: choices)
        if let listType, listType != .any, listType.elementType == nil {
            report("'choose' needs a list, but this is \(listType)", at: choices.location)
        }
        if let defaultAnswer = ask.defaultAnswer { _ = type(of: defaultAnswer) }
        let name = step.id?.value ?? "ask"
        if validator.isHeadless, ask.defaultAnswer == nil, !validator.answeredNames.contains(name) {
            report(
                "this choice needs an answer, but the run cannot ask", at: step.location,
                help: "give it a default:", remedy: .answerInAdvance(name: name, placeholder: "LABEL"))
        }
        let element = listType?.elementType ?? .any
        return ask.multiple ? .list(element) : element
    }
}

/// `ask: question` with optional `type:` and `default:` — asks the user; the output is the answer.
///
/// ```yaml
/// - id: count
///   ask: How many books?
///   type: Int
///   default: 3
/// ```
///
/// ```swift
/// if case .ask(let ask) = step.kind { print(ask.answerType?.value ?? "String") }
/// ```
public struct AskStep: Sendable, Hashable {
    /// The question.
    public var question: ValueNode
    /// The type of the answer, such as `Int` or `Date`, or `nil` for text.
    public var answerType: Located<String>?
    /// The suggested answer.
    public var defaultAnswer: ValueNode?
    /// `choose:` — the list whose elements are offered, labelled by their display
    /// representations; the answer is the element chosen. `nil` for a free answer.
    public var choices: ValueNode? = nil
    /// `multiple: true` — several elements may be chosen; the answer is the list of them, in
    /// the list's order.
    public var multiple: Bool = false
}

/// `append: value` with `to: name` — adds a value at the end of a list variable.
///
/// The variable is created as an empty list first if it does not exist yet.
///
/// ```yaml
/// - append: ${b.title}
///   to: titles
/// ```
///
/// ```swift
/// if case .append(let append) = step.kind { lists[append.variable.value, default: []].append(evaluate(append.value)) }
/// ```
public struct AppendStep: Sendable, Hashable {
    /// The value appended.
    public var value: ValueNode
    /// The list variable's name, from `to:`.
    public var variable: Located<String>
}

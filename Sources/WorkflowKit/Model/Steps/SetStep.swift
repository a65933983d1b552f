/// `set: name` with `to: value` — stores a value in a variable, replacing any earlier value.
///
/// ```yaml
/// - set: total
///   to: ${recent.count}
/// ```
///
/// ```swift
/// if case .set(let set) = step.kind { variables[set.variable.value] = evaluate(set.value) }
/// ```
public struct SetStep: Sendable, Hashable {
    /// The variable's name.
    public var variable: Located<String>
    /// The `to:` value.
    public var value: ValueNode
}

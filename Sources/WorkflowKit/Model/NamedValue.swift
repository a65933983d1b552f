/// A name and the value given to it: an intent parameter, a nested workflow input, a mapping entry.
///
/// ```swift
/// for parameter in perform.parameters {
///     print(parameter.name.value, "=", parameter.value)
/// }
/// ```
public struct NamedValue: Sendable, Hashable {
    /// The key as written, with its location.
    public var name: Located<String>
    /// The value.
    public var value: ValueNode
}

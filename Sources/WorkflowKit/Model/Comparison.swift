import IntentKit

/// One comparison: a subject, a comparator and its operand.
///
/// ```swift
/// if case .property(let name) = comparison.subject {
///     print("\(name.value) \(comparison.comparator.rawValue)")
/// }
/// ```
public struct Comparison: Sendable, Hashable {
    /// What is compared: an entity property (in `where:`) or a value (in `if:`).
    public enum Subject: Sendable, Hashable {
        /// A property of the entities being found or filtered.
        case property(Located<String>)
        /// The `value:` of an `if` condition.
        case value(ValueNode)
    }

    /// What the comparator is applied to.
    public enum Operand: Sendable, Hashable {
        /// The value compared with.
        case value(ValueNode)
        /// The two bounds of `isBetween`.
        case range(lower: ValueNode, upper: ValueNode)
        /// No operand: `hasValue` and `hasNoValue`.
        case absent
    }

    /// What is compared.
    public var subject: Subject
    /// How it is compared.
    public var comparator: ComparatorKind
    /// What it is compared with.
    public var operand: Operand
    /// Where the comparator key is written.
    public var location: SourceLocation
}

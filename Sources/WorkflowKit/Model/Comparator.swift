/// How a condition compares its subject, named as in property queries.
///
/// ```swift
/// if comparison.comparator == .isBetween, case .range(let lower, let upper) = comparison.operand {
///     print(lower, upper)
/// }
/// ```
public enum Comparator: String, Sendable, Hashable, CaseIterable {
    /// Equal to the operand.
    case equalTo
    /// Not equal to the operand.
    case notEqualTo
    /// Text or list containing the operand.
    case contains
    /// Text starting with the operand.
    case hasPrefix
    /// Text ending with the operand.
    case hasSuffix
    /// Less than the operand.
    case lessThan
    /// Less than or equal to the operand.
    case lessThanOrEqualTo
    /// Greater than the operand.
    case greaterThan
    /// Greater than or equal to the operand.
    case greaterThanOrEqualTo
    /// Between two values, bounds included; written with a two-element list.
    case isBetween
    /// The subject has a value; written `hasValue: true`.
    case hasValue
    /// The subject has no value; written `hasNoValue: true`.
    case hasNoValue
}

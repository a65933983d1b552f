/// A condition of an `if` step or of a `find`/`filter` query: comparisons combined with `all`/`any`.
///
/// In `where:` each key is a property name mapped to its comparators; several keys must all
/// hold. In `if:` the subject is written `value:` beside the comparator. `all:` and `any:`
/// take lists of such mappings and nest.
///
/// ```yaml
/// where:
///   author: { equalTo: ${book.author} }
///   any:
///     - datePublished: { lessThan: 1950-01-01 }
///     - title: { hasPrefix: The }
/// ```
///
/// ```swift
/// func describe(_ condition: Condition) -> String {
///     switch condition {
///     case .comparison(let comparison): return comparison.comparator.rawValue
///     case .all(let parts, _): return "all(" + parts.map(describe).joined(separator: ", ") + ")"
///     case .any(let parts, _): return "any(" + parts.map(describe).joined(separator: ", ") + ")"
///     }
/// }
/// ```
public indirect enum Condition: Sendable, Hashable {
    /// A single comparison.
    case comparison(Comparison)
    /// Every condition holds; an empty list always holds.
    case all([Condition], location: SourceLocation)
    /// At least one condition holds; an empty list never holds.
    case any([Condition], location: SourceLocation)

    /// Where the condition is written.
    ///
    /// ```swift
    /// diagnostics.append(.error("cannot compare a date with text", at: condition.location))
    /// ```
    public var location: SourceLocation {
        switch self {
        case .comparison(let comparison): return comparison.location
        case .all(_, let location), .any(_, let location): return location
        }
    }
}

/// How a YAML scalar was written.
///
/// ```swift
/// let isBlock = literal.style == .literal || literal.style == .folded
/// ```
public enum ScalarStyle: String, Sendable, Hashable, CaseIterable {
    /// Without quotes.
    case plain
    /// In single quotes: `'text'`.
    case singleQuoted
    /// In double quotes, with backslash escapes: `"text"`.
    case doubleQuoted
    /// A literal block scalar introduced by `|`.
    case literal
    /// A folded block scalar introduced by `>`.
    case folded
}

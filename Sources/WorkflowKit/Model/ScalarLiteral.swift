/// A scalar written in the workflow file that contains no expression, kept as written.
///
/// Literals stay untyped until a later stage converts them against the type of the
/// parameter, property or input they are given to. Nothing is lost: the text, the YAML
/// scalar style and the tag the YAML core schema resolves for it are all kept, so a
/// converter can tell `"3"` (quoted, a string) from `3` (an integer) from `3.0`.
///
/// ```swift
/// if case .literal(let literal) = value, literal.tag == .int, let number = Int(literal.text) {
///     print(number + 1)
/// }
/// ```
public struct ScalarLiteral: Sendable, Hashable {
    /// The scalar's value with `$${` escapes turned into `${`; the text a string parameter receives.
    public var text: String
    /// The scalar's value exactly as YAML produced it (quotes and YAML escapes resolved, `$${` kept).
    public var rawText: String
    /// The YAML type the scalar resolved to.
    public var tag: ScalarTag
    /// How the scalar was written.
    public var style: ScalarStyle
    /// Where the scalar starts (its opening quote or block indicator, if any).
    public var location: SourceLocation

    /// Whether the scalar was written in single or double quotes.
    ///
    /// ```swift
    /// let forcedString = literal.isQuoted // "3" rather than 3
    /// ```
    public var isQuoted: Bool {
        style == .singleQuoted || style == .doubleQuoted
    }
}

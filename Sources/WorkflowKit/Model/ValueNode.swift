/// A value written in a workflow: a literal, an expression, a text template, a list or a mapping.
///
/// A scalar that is exactly one `${…}` becomes ``expression(_:)`` and keeps the type of
/// what it refers to (a list stays a list). A scalar that mixes text and expressions, such
/// as `Added ${book}`, becomes ``template(_:)`` and is turned into text when run. Any other
/// scalar is a ``literal(_:)``.
///
/// ```swift
/// switch value {
/// case .literal(let literal): print("literal", literal.text, literal.tag)
/// case .expression(let expression): print("refers to", expression.variable.value)
/// case .template(let template): print(template.segments.count, "segments")
/// case .list(let elements, _): print(elements.count, "elements")
/// case .mapping(let entries, _): print(entries.map(\.name.value))
/// }
/// ```
public indirect enum ValueNode: Sendable, Hashable {
    /// A scalar without expressions.
    case literal(ScalarLiteral)
    /// A scalar that is exactly one expression, such as `${book.author}`.
    case expression(WorkflowExpression)
    /// A scalar mixing text and expressions, such as `Added ${book}`.
    case template(Template)
    /// A YAML sequence.
    case list([ValueNode], location: SourceLocation)
    /// A YAML mapping, in the order written.
    case mapping([NamedValue], location: SourceLocation)

    /// Where the value starts in the file.
    ///
    /// ```swift
    /// diagnostics.append(.error("expected a number", at: value.location))
    /// ```
    public var location: SourceLocation {
        switch self {
        case .literal(let literal): return literal.location
        case .expression(let expression): return expression.location
        case .template(let template): return template.location
        case .list(_, let location), .mapping(_, let location): return location
        }
    }
}

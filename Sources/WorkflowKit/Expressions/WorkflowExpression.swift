/// A reference to a value, written `${name}`, `${name.property}`, `${name[0]}` or a chain of these.
///
/// The first name is a variable: a step id, a variable made by `set`, the item of a
/// `repeat`, or one of the built-in names `input`, `previous`, `now` and `index`. Each
/// following component reads a property (`.count` included) or a list element. The parser
/// only checks the syntax; whether the names exist is decided when the workflow is validated.
///
/// ```swift
/// let template = try Template(parsing: "${book.authors[0].name}",
///                             at: SourceLocation(file: "a.yaml", line: 1, column: 1))
/// if let expression = template.singleExpression {
///     print(expression.variable.value)   // book
///     print(expression.components.count) // 3
/// }
/// ```
public struct WorkflowExpression: Sendable, Hashable, CustomStringConvertible {
    /// One step along an expression's path.
    ///
    /// ```swift
    /// for component in expression.components {
    ///     switch component {
    ///     case .property(let name): print(".\(name.value)")
    ///     case .index(let index): print("[\(index.value)]")
    ///     }
    /// }
    /// ```
    public enum Component: Sendable, Hashable {
        /// `.name`: a property of the value, or `count` of a list.
        case property(Located<String>)
        /// `[n]`: the element at a zero-based index of a list.
        case index(Located<Int>)
    }

    /// The variable the path starts from, located at its first character.
    public var variable: Located<String>
    /// The properties and indexes that follow the variable, in order.
    public var components: [Component]
    /// Where the expression is written: the column of its `${`, spanning up to its `}`.
    public var location: SourceLocation
    /// The parsed expression when it is more than a path (operators, literals, function
    /// calls, `?.`); `nil` for a plain path, which ``variable`` and ``components`` describe.
    public var tree: ExpressionNode? = nil
    /// The expression as written, for a ``tree``.
    var sourceText: String? = nil

    /// The expression in its canonical form, such as `${book.authors[0]}`.
    ///
    /// ```swift
    /// print("cannot evaluate \(expression)")
    /// ```
    public var description: String {
        if let sourceText { return sourceText }
        var text = "${" + variable.value
        for component in components {
            switch component {
            case .property(let name): text += "." + name.value
            case .index(let index): text += "[\(index.value)]"
            }
        }
        return text + "}"
    }
}

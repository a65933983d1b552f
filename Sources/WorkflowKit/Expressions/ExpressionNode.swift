import IntentKit

/// One node of a parsed `${…}` expression, located at the column where it is written.
///
/// Expressions that are more than a path (`${a + b * 2}`, `${upper(book.title)}`,
/// `${count(books) > 3 && shelf == "read"}`) are parsed once, when the workflow is loaded,
/// into a tree of nodes; every node keeps its location so that errors point inside the
/// expression.
///
/// ```swift
/// let template = try Template(parsing: "${a + b * 2}", at: SourceLocation(file: "a.yaml", line: 1, column: 1))
/// if case .binary(.add, let left, _)? = template.singleExpression?.tree?.kind {
///     print(left.location.column)   // 3
/// }
/// ```
public struct ExpressionNode: Sendable, Hashable {
    /// What a node computes.
    public indirect enum Kind: Sendable, Hashable {
        /// A number, text, `true`, `false` or `null`.
        case literal(IntentValue)
        /// `[a, b]`
        case list([ExpressionNode])
        /// `{"key": value}`
        case dictionary(keys: [String], values: [ExpressionNode])
        /// A variable name: a step id, a `set` variable, a loop item or a built-in name.
        case variable(String)
        /// `value.name`, or `value?.name` (null-safe) when `nullSafe` is true.
        case member(ExpressionNode, String, nullSafe: Bool)
        /// `value[index]`; a negative index counts from the end.
        case index(ExpressionNode, ExpressionNode)
        /// `-value` or `!value`.
        case unary(UnaryOperator, ExpressionNode)
        /// `left op right`.
        case binary(BinaryOperator, ExpressionNode, ExpressionNode)
        /// `condition ? then : otherwise`.
        case conditional(ExpressionNode, ExpressionNode, ExpressionNode)
        /// `name(arguments…)`.
        case call(String, [ExpressionNode])
    }

    /// A prefix operator.
    public enum UnaryOperator: String, Sendable, Hashable {
        case negate = "-"
        case not = "!"
        /// The value of a condition written as one expression (`if: ${a > 1}`), which must be
        /// true or false; it has no spelling of its own.
        case condition = "condition"
    }

    /// An infix operator, with the precedence it binds with (higher binds tighter).
    public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case and = "&&"
        case or = "||"
        case coalesce = "??"

        /// How tightly the operator binds: `??` 1, `||` 2, `&&` 3, equality 4, order 5, `+ -` 6, `* / %` 7.
        var precedence: Int {
            switch self {
            case .coalesce: 1
            case .or: 2
            case .and: 3
            case .equal, .notEqual: 4
            case .less, .lessOrEqual, .greater, .greaterOrEqual: 5
            case .add, .subtract: 6
            case .multiply, .divide, .remainder: 7
            }
        }
    }

    /// What the node computes.
    public var kind: Kind
    /// Where the node is written; a binary node is located at its operator.
    public var location: SourceLocation

    /// The node as a plain path (`a.b[0].c`) when it is one, so that paths share one way of
    /// being checked and evaluated.
    var path: WorkflowExpression? {
        switch kind {
        case .variable(let name):
            return WorkflowExpression(variable: Located(name, at: location), components: [], location: location)
        case .member(let base, let name, nullSafe: false):
            guard var path = base.path else { return nil }
            path.components.append(.property(Located(name, at: location)))
            return path
        case .index(let base, let index):
            guard var path = base.path, case .literal(.int(let position)) = index.kind else { return nil }
            path.components.append(.index(Located(position, at: index.location)))
            return path
        default:
            return nil
        }
    }
}

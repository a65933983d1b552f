import Yams

/// Conditions written as one boolean expression: `if: ${count(books) > 3 && shelf == "read"}`.
extension WorkflowConverter {
    /// A scalar condition, which must be exactly one `${…}` expression. It becomes a comparison
    /// of the expression's value, which must be true or false, with `true`.
    func convertExpressionCondition(_ scalar: Node.Scalar) -> Condition? {
        guard let value = convertScalar(scalar) else { return nil }
        guard case .expression(let expression) = value else {
            report(
                "a condition written as text must be exactly one expression, such as '${count > 3}'", at: value.location,
                help: "remove the text around the '${…}', or write '{ value: …, equalTo: … }'")
            return nil
        }
        var condition = expression
        condition.tree = ExpressionNode(kind: .unary(.condition, expression.tree ?? Self.node(of: expression)), location: expression.location)
        condition.sourceText = expression.description
        let yes = ScalarLiteral(text: "true", rawText: "true", tag: .bool, style: .plain, location: expression.location)
        return .comparison(
            Comparison(
                subject: .value(.expression(condition)), comparator: .equalTo, operand: .value(.literal(yes)),
                location: expression.location))
    }

    /// A path as a tree of nodes, each at the location of its name or index.
    private static func node(of path: WorkflowExpression) -> ExpressionNode {
        var node = ExpressionNode(kind: .variable(path.variable.value), location: path.variable.location)
        for component in path.components {
            switch component {
            case .property(let name):
                node = ExpressionNode(kind: .member(node, name.value, nullSafe: false), location: name.location)
            case .index(let index):
                node = ExpressionNode(
                    kind: .index(node, ExpressionNode(kind: .literal(.int(index.value)), location: index.location)), location: index.location)
            }
        }
        return node
    }
}

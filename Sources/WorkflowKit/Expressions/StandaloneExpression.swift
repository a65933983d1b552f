import Clockwork
import IntentKit

/// One `${…}` expression evaluated outside a workflow, with variables given by the caller:
/// what a benchmark or a tool that tries expressions needs.
///
/// ```swift
/// var sum = try StandaloneExpression("${a + b * 2}")
/// sum.set("a", to: .int(1))
/// sum.set("b", to: .int(2))
/// print(try sum.evaluate())   // int(5)
/// ```
package struct StandaloneExpression {
    private let expression: WorkflowExpression
    private var scope = RunScope(inputs: [:], clock: TaskClock.current)
    private let evaluator = ValueEvaluator(sources: [:], environment: RunEnvironment(variables: [:], store: nil))

    /// Parses text that is exactly one `${…}` expression.
    ///
    /// - Throws: ``DiagnosticError`` for a malformed expression, or text that is not one expression.
    package init(_ text: String) throws(DiagnosticError) {
        let location = SourceLocation(file: "expression", line: 1, column: 1)
        guard let expression = try Template(parsing: text, at: location).singleExpression else {
            throw DiagnosticError([.error("expected exactly one ${…} expression", at: location)])
        }
        self.expression = expression
    }

    /// Gives a variable a value.
    package mutating func set(_ name: String, to value: IntentValue) {
        scope.assign(value, to: name)
    }

    /// The expression's value with the variables set so far.
    ///
    /// - Throws: ``WorkflowRunError`` located inside the expression.
    package func evaluate() throws -> IntentValue {
        try evaluator.evaluate(expression, in: scope)
    }
}

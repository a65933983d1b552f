import Foundation
import IntentKit

/// Turns the values written in a workflow into ``IntentValue``s: literals by their YAML tag,
/// `${...}` expressions by looking them up in the scope (keeping their type) or, for
/// `${env.NAME}` and `${secrets.NAME}`, in the run's environment, and text with
/// interpolations by joining display texts.
struct ValueEvaluator {
    let sources: [String: String]
    let environment: RunEnvironment

    func evaluate(_ node: ValueNode, in scope: RunScope) throws -> IntentValue {
        switch node {
        case .literal(let literal):
            return Self.value(of: literal)
        case .expression(let expression):
            return try evaluate(expression, in: scope)
        case .template(let template):
            var text = ""
            for segment in template.segments {
                switch segment {
                case .text(let words): text += words
                case .expression(let expression): text += try evaluate(expression, in: scope).displayText
                }
            }
            return .string(text)
        case .list(let elements, _):
            return .list(try elements.map { try evaluate($0, in: scope) })
        case .mapping(let entries, _):
            var dictionary: [String: IntentValue] = [:]
            for entry in entries { dictionary[entry.name.value] = try evaluate(entry.value, in: scope) }
            return .dictionary(dictionary)
        }
    }

    /// A literal by its YAML tag: `null`, booleans, integers, floats, timestamps (dates) and text.
    static func value(of literal: ScalarLiteral) -> IntentValue {
        switch literal.tag {
        case .null: return .null
        case .bool: return .bool(["true", "True", "TRUE"].contains(literal.text))
        case .int: return Int(literal.text.replacingOccurrences(of: "_", with: "")).map(IntentValue.int) ?? .string(literal.text)
        case .float: return Double(literal.text).map(IntentValue.double) ?? .string(literal.text)
        case .timestamp: return DateText.parse(literal.text).map(IntentValue.date) ?? .string(literal.text)
        default: return .string(literal.text)
        }
    }

    func evaluate(_ expression: WorkflowExpression, in scope: RunScope) throws -> IntentValue {
        if let tree = expression.tree { return try evaluate(tree, in: scope) }
        var value: IntentValue
        var components = expression.components[...]
        if let root = ReservedRoot(rawValue: expression.variable.value) {
            guard case .property(let name)? = components.first else {
                throw WorkflowRunError(
                    "'\(root.rawValue)' reads \(root.what) by its name", at: expression.location,
                    help: "write \(root.example)", sources: sources)
            }
            value = try environment.value(of: root, named: name, sources: sources)
            components = components.dropFirst()
        } else if case .property(let member)? = components.first, member.value == "error",
            let failure = scope[expression.variable.value + ".error"]
        {
            // `${id.error}` of a step with `continueOnError: true`.
            value = failure
            components = components.dropFirst()
        } else if let found = scope[expression.variable.value] {
            value = found
        } else {
            throw WorkflowRunError(
                "'\(expression.variable.value)' has no value here", at: expression.variable.location,
                help: NameSuggestion.nearest(to: expression.variable.value, among: scope.names).map { "did you mean '\($0)'?" },
                sources: sources)
        }
        for component in components {
            switch component {
            case .property(let name):
                value = try member(name.value, of: value, at: name.location)
            case .index(let index):
                let elements = value.elements
                let position = index.value < 0 ? elements.count + index.value : index.value
                guard elements.indices.contains(position) else {
                    throw WorkflowRunError(
                        "index \(index.value) is outside the list of \(elements.count) item\(elements.count == 1 ? "" : "s")",
                        at: index.location, sources: sources)
                }
                value = elements[position]
            }
        }
        return value
    }
}

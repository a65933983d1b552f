import Foundation
import IntentKit

/// Evaluates `if:` conditions and `where:` conditions on one value, with the comparator
/// vocabulary of property queries plus `hasValue` and `hasNoValue`.
struct ConditionEvaluator {
    let values: ValueEvaluator

    /// Whether a condition holds. Property subjects read members of `element`.
    func holds(_ condition: Condition, element: IntentValue?, in scope: RunScope) throws -> Bool {
        switch condition {
        case .all(let conditions, _):
            for part in conditions where !(try holds(part, element: element, in: scope)) { return false }
            return true
        case .any(let conditions, _):
            for part in conditions where try holds(part, element: element, in: scope) { return true }
            return false
        case .comparison(let comparison):
            let subject: IntentValue
            switch comparison.subject {
            case .value(let node):
                subject = try values.evaluate(node, in: scope)
            case .property(let name):
                guard let element else {
                    throw WorkflowRunError(
                        "'\(name.value)' is a property, but there is no item to read it from",
                        at: name.location, sources: values.sources)
                }
                guard let member = element.member(name.value) else {
                    var known: [String] = []
                    if case .entity(let entity) = element { known = entity.properties.keys.sorted() }
                    throw WorkflowRunError(
                        "\(element.kindName) has no property '\(name.value)'", at: name.location,
                        help: NameSuggestion.nearest(to: name.value, among: known).map { "did you mean '\($0)'?" },
                        sources: values.sources)
                }
                subject = member
            }
            return try holds(comparison, subject: subject, in: scope)
        }
    }

    private func holds(_ comparison: Comparison, subject: IntentValue, in scope: RunScope) throws -> Bool {
        comparison.comparator.evaluate(subject, try operands(of: comparison, in: scope))
    }

    func operands(of comparison: Comparison, in scope: RunScope) throws -> [IntentValue] {
        switch comparison.operand {
        case .value(let node): return [try values.evaluate(node, in: scope)]
        case .range(let lower, let upper): return [try values.evaluate(lower, in: scope), try values.evaluate(upper, in: scope)]
        case .absent: return []
        }
    }

    /// The condition as flat property comparisons joined by one mode, when it is that simple
    /// (so a `find` can push it down to the entity's query).
    func flatPropertyConditions(_ condition: Condition, in scope: RunScope) throws -> (ComparatorMode, [PropertyCondition])? {
        func comparison(_ part: Condition) throws -> PropertyCondition? {
            // Presence tests are checked in memory: entity queries do not declare them.
            guard case .comparison(let comparison) = part, case .property(let name) = comparison.subject,
                comparison.comparator.takesOperand
            else { return nil }
            return PropertyCondition(property: name.value, comparator: comparison.comparator, operands: try operands(of: comparison, in: scope))
        }
        // `all` inside `all` (several comparators of one property: `name: { hasPrefix: a, hasSuffix: b }`)
        // is one `all`; `any` inside `any` is one `any`.
        func flattened(_ parts: [Condition], isAll: Bool) -> [Condition] {
            parts.flatMap { part -> [Condition] in
                switch part {
                case .all(let inner, _) where isAll: flattened(inner, isAll: true)
                case .any(let inner, _) where !isAll: flattened(inner, isAll: false)
                default: [part]
                }
            }
        }
        switch condition {
        case .comparison:
            return try comparison(condition).map { (.and, [$0]) }
        case .all(let parts, _), .any(let parts, _):
            let isAll = if case .all = condition { true } else { false }
            var flat: [PropertyCondition] = []
            for part in flattened(parts, isAll: isAll) {
                guard let single = try comparison(part) else { return nil }
                flat.append(single)
            }
            return (isAll ? .and : .or, flat)
        }
    }
}

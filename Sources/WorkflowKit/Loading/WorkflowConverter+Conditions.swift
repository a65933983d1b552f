import IntentKit
import Yams

/// Converting conditions (`where:`, `all:`, `any:`, `if:`), `sortBy:` and `limit:`.
extension WorkflowConverter {
    /// What a `find` or `filter` step queries with.
    struct QuerySettings {
        var condition: Condition?
        var sortBy: [SortCriterion]
        var limit: ValueNode?
    }

    /// Where a condition's subject comes from.
    private enum SubjectMode {
        /// Keys are entity property names (`where:`).
        case properties
        /// The subject is written `value:` (`if:`).
        case value
    }

    private static let combinatorKeys = ["all", "any"]

    /// The `where:`, `all:`, `any:`, `sortBy:` and `limit:` settings of a `find` or `filter` step.
    func convertQuery(_ settings: StepSettings) -> QuerySettings? {
        let depth = settings.depth + 1
        let errorsBefore = diagnostics.count
        var parts: [Condition] = []
        if let whereNode = settings["where"] {
            if let entries = mappingEntries(whereNode, for: "'where'") {
                parts += combine(conditionParts(entries, mode: .properties, depth: depth), at: entries.location, emptyMeans: nil)
            }
        }
        for key in Self.combinatorKeys {
            if let entry = settings.entries[key] {
                parts += combinator(entry, mode: .properties, depth: depth).map { [$0] } ?? []
            }
        }
        let sortBy = settings["sortBy"].map(convertSortBy) ?? []
        let limit = settings["limit"].flatMap { convertLimit($0, depth: depth) }
        guard diagnostics.count == errorsBefore else { return nil }
        let condition = combine(parts, at: settings.kindEntry.key.location, emptyMeans: nil)
        return QuerySettings(condition: condition.first, sortBy: sortBy, limit: limit)
    }

    /// The condition of an `if:` step, whose subject is written `value:`.
    func convertIfCondition(_ node: Node, depth: Int) -> Condition? {
        if case .scalar(let scalar) = node, shield.restore(scalar.string).contains("${") { return convertExpressionCondition(scalar) }
        guard case .mapping(let mapping) = node else {
            report(
                "expected a condition such as '{ value: ${total}, greaterThan: 0 }' for 'if', got \(describe(node))",
                at: location(of: node))
            return nil
        }
        let errorsBefore = diagnostics.count
        let entries = entries(of: mapping)
        let parts = conditionParts(entries, mode: .value, depth: depth)
        guard diagnostics.count == errorsBefore, !isAborted else { return nil }
        guard !parts.isEmpty else {
            guard entries.all.isEmpty else { return nil }
            report("empty condition", at: entries.location, help: "write a condition such as '{ value: ${total}, greaterThan: 0 }'")
            return nil
        }
        return combine(parts, at: entries.location, emptyMeans: nil).first
    }

    // MARK: - Parts

    /// One or several conditions as one: nothing, the single condition, or `all` of them.
    private func combine(_ parts: [Condition], at location: SourceLocation, emptyMeans empty: Condition?) -> [Condition] {
        switch parts.count {
        case 0: return empty.map { [$0] } ?? []
        case 1: return parts
        default: return [.all(parts, location: location)]
        }
    }

    /// The conditions a condition mapping states, in the order written.
    private func conditionParts(_ entries: MappingEntries, mode: SubjectMode, depth: Int) -> [Condition] {
        guard admit(depth: depth, location: entries.location) else { return [] }
        var parts: [Condition] = []
        switch mode {
        case .properties:
            for entry in entries.all {
                if Self.combinatorKeys.contains(entry.key.value) {
                    parts += combinator(entry, mode: mode, depth: depth).map { [$0] } ?? []
                } else if checkName(entry.key, kind: "property name") {
                    parts += propertyComparisons(entry, depth: depth)
                }
            }
        case .value:
            let comparatorNames = ComparatorKind.allCases.map(\.rawValue)
            let subjectEntry = entries["value"]
            let subject = subjectEntry.flatMap { convertValue($0.value, depth: depth + 1) }
            var comparatorCount = 0
            for entry in entries.all where entry.key.value != "value" {
                if Self.combinatorKeys.contains(entry.key.value) {
                    parts += combinator(entry, mode: mode, depth: depth).map { [$0] } ?? []
                } else if let comparator = ComparatorKind(rawValue: entry.key.value) {
                    comparatorCount += 1
                    guard subjectEntry != nil else {
                        report(
                            "missing 'value' for comparator '\(comparator.rawValue)'", at: entry.key.location,
                            help: "write what to compare as 'value:', such as '{ value: ${total}, \(comparator.rawValue): … }'")
                        continue
                    }
                    guard let subject, let operand = operand(of: comparator, entry, depth: depth) else { continue }
                    parts.append(
                        .comparison(
                            Comparison(
                                subject: .value(subject), comparator: comparator,
                                operand: operand, location: entry.key.location)))
                } else {
                    reportUnknownKey(
                        entry.key, message: "unknown key '\(entry.key.value)' in condition",
                        candidates: ["value"] + Self.combinatorKeys + comparatorNames)
                }
            }
            if let subjectEntry, comparatorCount == 0 {
                report("'value' needs a comparator, such as 'equalTo' or 'greaterThan'", at: subjectEntry.key.location)
            }
        }
        return parts
    }

    /// `all: [...]` or `any: [...]`: a list of condition mappings.
    private func combinator(_ entry: MappingEntries.Entry, mode: SubjectMode, depth: Int) -> Condition? {
        guard case .sequence(let sequence) = entry.value else {
            report(
                "expected a list of conditions for '\(entry.key.value)', got \(describe(entry.value))",
                at: location(of: entry.value))
            return nil
        }
        var items: [Condition] = []
        for element in sequence {
            if mode == .value, case .scalar(let scalar) = element, shield.restore(scalar.string).contains("${") {
                items += convertExpressionCondition(scalar).map { [$0] } ?? []
                continue
            }
            guard case .mapping(let mapping) = element else {
                report("expected a condition mapping in '\(entry.key.value)', got \(describe(element))", at: location(of: element))
                continue
            }
            let elementEntries = entries(of: mapping)
            let parts = conditionParts(elementEntries, mode: mode, depth: depth + 1)
            items += combine(parts, at: elementEntries.location, emptyMeans: .all([], location: elementEntries.location))
        }
        return entry.key.value == "any" ? .any(items, location: entry.key.location) : .all(items, location: entry.key.location)
    }

    /// `property: { comparator: operand, ... }` in a `where:` mapping.
    private func propertyComparisons(_ entry: MappingEntries.Entry, depth: Int) -> [Condition] {
        let property = entry.key
        guard case .mapping(let mapping) = entry.value else {
            report(
                "expected comparators for property '\(property.value)', such as '{ equalTo: … }', got \(describe(entry.value))",
                at: location(of: entry.value))
            return []
        }
        let comparatorEntries = entries(of: mapping)
        guard !comparatorEntries.all.isEmpty else {
            report(
                "no comparator for property '\(property.value)'", at: comparatorEntries.location,
                help: "write a comparator such as '{ equalTo: … }'")
            return []
        }
        var comparisons: [Condition] = []
        for comparatorEntry in comparatorEntries.all {
            guard let comparator = ComparatorKind(rawValue: comparatorEntry.key.value) else {
                reportUnknownKey(
                    comparatorEntry.key,
                    message: "unknown comparator '\(comparatorEntry.key.value)' for property '\(property.value)'",
                    candidates: ComparatorKind.allCases.map(\.rawValue))
                continue
            }
            guard let operand = operand(of: comparator, comparatorEntry, depth: depth) else { continue }
            comparisons.append(
                .comparison(
                    Comparison(
                        subject: .property(property), comparator: comparator,
                        operand: operand, location: comparatorEntry.key.location)))
        }
        return combine(comparisons, at: property.location, emptyMeans: nil)
    }

    /// What a comparator compares with.
    private func operand(of comparator: ComparatorKind, _ entry: MappingEntries.Entry, depth: Int) -> Comparison.Operand? {
        switch comparator {
        case .isBetween:
            guard case .sequence(let bounds) = entry.value, bounds.count == 2 else {
                report(
                    "'isBetween' expects a list of two values, such as '[1, 10]', got \(describe(entry.value))",
                    at: location(of: entry.value))
                return nil
            }
            guard let lower = convertValue(bounds[0], depth: depth + 1),
                let upper = convertValue(bounds[1], depth: depth + 1)
            else { return nil }
            return .range(lower: lower, upper: upper)
        case .hasValue, .hasNoValue:
            guard case .scalar(let scalar) = entry.value, CoreSchemaResolver.tag(of: scalar) == .bool,
                scalar.string.lowercased() == "true"
            else {
                let opposite = comparator == .hasValue ? "hasNoValue" : "hasValue"
                report(
                    "'\(comparator.rawValue)' takes 'true', got \(describe(entry.value))", at: location(of: entry.value),
                    help: "to test the opposite, write '\(opposite): true'")
                return nil
            }
            return .absent
        default:
            return convertValue(entry.value, depth: depth + 1).map { .value($0) }
        }
    }

    // MARK: - Sorting

    /// `sortBy: [ property, { property: ascending|descending } ]`.
    private func convertSortBy(_ node: Node) -> [SortCriterion] {
        guard case .sequence(let sequence) = node else {
            report(
                "expected a list for 'sortBy', got \(describe(node))", at: location(of: node),
                help: "write 'sortBy: [ { datePublished: descending } ]'")
            return []
        }
        var criteria: [SortCriterion] = []
        for element in sequence {
            switch element {
            case .scalar where !Self.isNull(element):
                if let property = text(element, for: "'sortBy'"), checkName(property, kind: "property name") {
                    criteria.append(SortCriterion(property: property, order: .ascending))
                }
            case .mapping(let mapping) where mapping.count == 1:
                let entries = entries(of: mapping)
                guard let entry = entries.all.first, checkName(entry.key, kind: "property name"),
                    let order = choice(entry.value, for: "the order of '\(entry.key.value)'", as: EntityQuerySortOrder.self)
                else { continue }
                criteria.append(SortCriterion(property: entry.key, order: order))
            default:
                report(
                    "expected a property name or '{ property: ascending|descending }' in 'sortBy', got \(describe(element))",
                    at: location(of: element))
            }
        }
        return criteria
    }
}

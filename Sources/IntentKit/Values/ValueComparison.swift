import Foundation

/// The comparisons behind property-query comparators, workflow conditions and `When`
/// summaries, so that a condition means the same in every place.
///
/// - Numbers compare by value across `Int` and `Double`; dates chronologically.
/// - Text compares ignoring case and diacritics (`"cafe"` equals `"Café"`), as people search.
/// - An enum case equals text naming its raw value or title; entities are equal when their
///   type and identifier are.
/// - Text converts to a date or number when the other side is one (`"2018-08-14"`).
///
/// ```swift
/// ValueComparison.equal(.string("EMMA"), .string("Emma"))                     // true
/// ValueComparison.order(.int(3), .double(2.5))                                // .orderedDescending
/// ValueComparison.contains(.string("Where the Crawdads Sing"), .string("crawdad"))  // true
/// ```
package enum ValueComparison {
    /// Whether two values are equal.
    package static func equal(_ left: IntentValue, _ right: IntentValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.entity(let a), .entity(let b)): return a == b
        case (.entity(let entity), .string(let text)), (.string(let text), .entity(let entity)):
            return entity.identifier == text || fold(entity.title) == fold(text)
        case (.enumCase(let a), .enumCase(let b)): return a.typeName == b.typeName && a.rawValue == b.rawValue
        case (.enumCase(let value), .string(let text)), (.string(let text), .enumCase(let value)):
            return value.rawValue == text || fold(value.rawValue) == fold(text) || fold(value.title) == fold(text)
        case (.list(let a), .list(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.bool(let a), _):
            return (try? ValueCoercion.bool(from: right)) == a
        case (_, .bool(let b)):
            return (try? ValueCoercion.bool(from: left)) == b
        default:
            return order(left, right) == .orderedSame
        }
    }

    /// How two values are ordered, or `nil` when they cannot be compared.
    package static func order(_ left: IntentValue, _ right: IntentValue) -> ComparisonResult? {
        switch (left, right) {
        case (.int(let a), .int(let b)): return compare(a, b)
        case (.int, .double), (.double, .int), (.double, .double):
            guard let a = number(left), let b = number(right) else { return nil }
            return compare(a, b)
        case (.date(let a), .date(let b)): return compare(a, b)
        case (.date(let a), .string(let text)):
            return DateText.parse(text).map { compare(a, $0) }
        case (.string(let text), .date(let b)):
            return DateText.parse(text).map { compare($0, b) }
        case (.int, .string), (.double, .string), (.string, .int), (.string, .double):
            if let a = number(left), let b = number(right) { return compare(a, b) }
            return compareText(left.displayText, right.displayText)
        case (.string(let a), .string(let b)): return compareText(a, b)
        case (.enumCase, _), (_, .enumCase), (.entity, _), (_, .entity), (.url, _), (_, .url):
            return compareText(left.displayText, right.displayText)
        case (.bool(let a), .bool(let b)): return compare(a ? 1 : 0, b ? 1 : 0)
        default: return nil
        }
    }

    /// Whether text (or a list) contains another text (or element).
    package static func contains(_ value: IntentValue, _ part: IntentValue) -> Bool {
        if case .list(let elements) = value {
            return elements.contains { equal($0, part) }
        }
        guard !value.isNull else { return false }
        return fold(value.displayText).contains(fold(part.displayText))
    }

    /// Whether text starts with another text.
    package static func hasPrefix(_ value: IntentValue, _ prefix: IntentValue) -> Bool {
        guard !value.isNull else { return false }
        return fold(value.displayText).hasPrefix(fold(prefix.displayText))
    }

    /// Whether text ends with another text.
    package static func hasSuffix(_ value: IntentValue, _ suffix: IntentValue) -> Bool {
        guard !value.isNull else { return false }
        return fold(value.displayText).hasSuffix(fold(suffix.displayText))
    }

    /// Text with case and diacritics removed, as comparisons see it.
    package static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    private static func number(_ value: IntentValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    private static func compareText(_ a: String, _ b: String) -> ComparisonResult {
        let (foldedA, foldedB) = (fold(a), fold(b))
        if foldedA == foldedB { return .orderedSame }
        return foldedA < foldedB ? .orderedAscending : .orderedDescending
    }

    private static func compare<Value: Comparable>(_ a: Value, _ b: Value) -> ComparisonResult {
        a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }
}

import Foundation

/// The comparison operators of the query language.
enum ComparisonOperator: String, Sendable, Equatable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="

    var isOrdering: Bool {
        switch self {
        case .equal, .notEqual: return false
        default: return true
        }
    }
}

/// The letters that may follow a quoted string: `c`, `d`, `w`, `t`.
struct MatchModifiers: OptionSet, Sendable, Hashable {
    let rawValue: Int
    /// Case-insensitive.
    static let caseInsensitive = MatchModifiers(rawValue: 1)
    /// Diacritic-insensitive.
    static let diacriticInsensitive = MatchModifiers(rawValue: 2)
    /// Word-based, with lower-to-upper case transitions as word boundaries.
    static let wordBased = MatchModifiers(rawValue: 4)
    /// Tokenized: every token of the value must match a whole token, in any order.
    static let tokenized = MatchModifiers(rawValue: 8)

    var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.wordBased) { text += "w" }
        if contains(.tokenized) { text += "t" }
        return text
    }
}

/// One element of a string pattern.
enum PatternElement: Sendable, Hashable {
    case literal(Character)
    case wildcard
}

/// A quoted string value with its wildcards and modifiers.
struct StringPattern: Sendable, Hashable {
    var elements: [PatternElement]
    var modifiers: MatchModifiers

    /// Whether the pattern is only wildcards (`"*"`), which tests for presence.
    var isPresenceTest: Bool {
        !elements.isEmpty && elements.allSatisfy { $0 == .wildcard }
    }

    /// The pattern in escaped form, as it is handed to the SQL matching function.
    var encoded: String {
        var text = ""
        for element in elements {
            switch element {
            case .wildcard: text.append("*")
            case .literal(let character):
                if character == "*" || character == "\\" { text.append("\\") }
                text.append(character)
            }
        }
        return text
    }

    /// Parses the escaped form produced by ``encoded``.
    static func decode(_ text: String, modifiers: MatchModifiers) -> StringPattern {
        var elements: [PatternElement] = []
        var escaping = false
        for character in text {
            if escaping {
                elements.append(.literal(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "*" {
                elements.append(.wildcard)
            } else {
                elements.append(.literal(character))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        return StringPattern(elements: elements, modifiers: modifiers)
    }
}

/// A `$time` value, resolved against a clock when the query is compiled.
enum TimeValue: Sendable, Hashable {
    case now(seconds: Double)
    case today(days: Int)
    case yesterday(days: Int)
    case thisWeek(weeks: Int)
    case thisMonth(months: Int)
    case thisYear(years: Int)
    case iso(Date)
}

/// The right-hand side of a comparison.
enum QueryValue: Sendable, Hashable {
    case string(StringPattern)
    case number(Double)
    case time(TimeValue)
}

/// An attribute name as written, with its 1-based column.
struct AttributeName: Sendable, Hashable {
    var name: String
    var column: Int
}

/// A parsed query.
indirect enum QueryNode: Sendable, Hashable {
    case and(QueryNode, QueryNode)
    case or(QueryNode, QueryNode)
    case not(QueryNode)
    case comparison(attribute: AttributeName, op: ComparisonOperator, value: QueryValue, valueColumn: Int)
    case inRange(attribute: AttributeName, lower: QueryValue, upper: QueryValue, lowerColumn: Int, upperColumn: Int)
}

extension QueryNode {
    /// The operands of a chain of `&&` (or `||`), left to right, across parentheses:
    /// `a && (b && c)` gives `[a, b, c]`. Walks without recursion, so chains of any length are safe.
    func operands(ofAnd isAnd: Bool) -> [QueryNode] {
        var operands: [QueryNode] = []
        var pending: [QueryNode] = [self]
        while let node = pending.popLast() {
            switch node {
            case .and(let lhs, let rhs) where isAnd, .or(let lhs, let rhs) where !isAnd:
                pending.append(rhs)
                pending.append(lhs)
            default:
                operands.append(node)
            }
        }
        return operands
    }

    /// The node under any number of `!`, and whether an odd number of them negates it.
    var withoutDoubleNegation: (node: QueryNode, negated: Bool) {
        var node = self
        var negated = false
        while case .not(let inner) = node {
            negated.toggle()
            node = inner
        }
        return (node, negated)
    }
}

extension QueryNode: CustomStringConvertible {
    var description: String {
        switch self {
        case .and(let lhs, let rhs): return "(\(lhs) && \(rhs))"
        case .or(let lhs, let rhs): return "(\(lhs) || \(rhs))"
        case .not(let node): return "!\(node)"
        case .comparison(let attribute, let op, let value, _):
            return "\(attribute.name) \(op.rawValue) \(value.canonical)"
        case .inRange(let attribute, let lower, let upper, _, _):
            return "InRange(\(attribute.name), \(lower.canonical), \(upper.canonical))"
        }
    }
}

extension QueryValue {
    var canonical: String {
        switch self {
        case .string(let pattern):
            let escaped = pattern.encoded.replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\"\(pattern.modifiers.letters)"
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .time(let time):
            switch time {
            case .now(let seconds): return seconds == 0 ? "$time.now" : "$time.now(\(seconds))"
            case .today(let days): return days == 0 ? "$time.today" : "$time.today(\(days))"
            case .yesterday(let days): return days == 0 ? "$time.yesterday" : "$time.yesterday(\(days))"
            case .thisWeek(let weeks): return weeks == 0 ? "$time.this_week" : "$time.this_week(\(weeks))"
            case .thisMonth(let months): return months == 0 ? "$time.this_month" : "$time.this_month(\(months))"
            case .thisYear(let years): return years == 0 ? "$time.this_year" : "$time.this_year(\(years))"
            case .iso(let date): return "$time.iso(\(ISO8601Formatting.string(from: date)))"
            }
        }
    }
}

/// A parsed, validated query string.
///
/// Parsing is done for you by ``SearchQuery`` and by the filter queries of
/// ``UserQueryContext``; parse directly to validate input early or to show the
/// canonical form.
///
/// ```swift
/// let expression = try QueryExpression.parse(#"keywords == "natural*"cwdt && rankingHint >= 50"#)
/// print(expression) // (keywords == "natural*"cdwt && rankingHint >= 50)
/// ```
public struct QueryExpression: Sendable, Hashable, CustomStringConvertible {
    let root: QueryNode
    /// The text the expression was parsed from.
    public let source: String

    /// Parses a query string.
    ///
    /// ```swift
    /// let expression = try QueryExpression.parse(#"title == "café"cd"#)
    /// ```
    ///
    /// - Parameters:
    ///   - queryString: Text in the query language.
    /// - Returns: The parsed expression.
    /// - Throws: ``SpotlightError/invalidQuery(query:column:message:)`` with the 1-based column of the mistake.
    public static func parse(_ queryString: String) throws -> QueryExpression {
        var parser = QueryParser(source: queryString)
        let expression = QueryExpression(root: try parser.parse(), source: queryString)
        // Compiling checks the limits of the SQL too, so a query that parses also runs; the
        // instant `$time` values resolve to plays no part in that.
        _ = try QuerySQLCompiler.compile(expression, environment: QueryEnvironment(now: Date(timeIntervalSince1970: 0)))
        return expression
    }

    /// The canonical form of the expression, fully parenthesized.
    public var description: String { root.description }
}

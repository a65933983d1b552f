import Foundation
import GRDB

/// A boolean SQL expression over `spotlightItem AS i`, with its bound arguments.
struct CompiledFilter: Sendable {
    var sql: String
    var arguments: [DatabaseValue]

    static let alwaysTrue = CompiledFilter(sql: "1", arguments: [])

    static func and(_ filters: [CompiledFilter]) -> CompiledFilter {
        guard !filters.isEmpty else { return .alwaysTrue }
        return CompiledFilter(
            sql: filters.map { "(\($0.sql))" }.joined(separator: " AND "),
            arguments: filters.flatMap(\.arguments))
    }
}

/// Translates a parsed query into SQL. Every value from the query is a bound
/// parameter; the SQL text contains only fixed column names and operators.
struct QuerySQLCompiler {
    /// Seconds between 1970-01-01 and 2001-01-01: bare numbers compared with dates are seconds since 2001.
    static let referenceDateOffset = 978_307_200.0

    var environment: QueryEnvironment
    private var arguments: [DatabaseValue] = []

    init(environment: QueryEnvironment) {
        self.environment = environment
    }

    static func compile(_ expression: QueryExpression, environment: QueryEnvironment) -> CompiledFilter {
        var compiler = QuerySQLCompiler(environment: environment)
        let sql = compiler.compile(expression.root)
        return CompiledFilter(sql: sql, arguments: compiler.arguments)
    }

    private mutating func bind(_ value: some DatabaseValueConvertible) -> String {
        arguments.append(value.databaseValue)
        return "?"
    }

    private mutating func compile(_ node: QueryNode) -> String {
        switch node {
        case let .and(lhs, rhs):
            return "(\(compile(lhs)) AND \(compile(rhs)))"
        case let .or(lhs, rhs):
            return "(\(compile(lhs)) OR \(compile(rhs)))"
        case let .not(inner):
            return "(NOT \(compile(inner)))"
        case let .comparison(attribute, op, value, _):
            return comparison(attribute.name, op, value)
        case let .inRange(attribute, lower, upper, _, _):
            if let builtin = AttributeCatalog.lookup(attribute.name) {
                let column = "i.\(builtin.column)"
                let low = bind(number(lower, forDate: builtin.kind == .date))
                let high = bind(number(upper, forDate: builtin.kind == .date))
                return "COALESCE(\(column) BETWEEN \(low) AND \(high), 0)"
            }
            let key = bind(attribute.name)
            let rawLow = bind(number(lower, forDate: false))
            let rawHigh = bind(number(upper, forDate: false))
            let dateLow = bind(number(lower, forDate: true))
            let dateHigh = bind(number(upper, forDate: true))
            return "EXISTS (SELECT 1 FROM spotlightCustomAttribute a WHERE a.itemId = i.id AND a.key = \(key) AND "
                + "((a.kind = 'number' AND a.numberValue BETWEEN \(rawLow) AND \(rawHigh)) OR "
                + "(a.kind = 'date' AND a.numberValue BETWEEN \(dateLow) AND \(dateHigh))))"
        }
    }

    /// The number a value stands for; dates are seconds since 1970.
    private func number(_ value: QueryValue, forDate: Bool) -> Double {
        switch value {
        case .number(let number):
            return forDate ? number + Self.referenceDateOffset : number
        case .time(let time):
            return environment.resolve(time).timeIntervalSince1970
        case .string:
            return .nan
        }
    }

    private mutating func comparison(_ name: String, _ op: ComparisonOperator, _ value: QueryValue) -> String {
        if name == "*" {
            guard case .string(let pattern) = value else { return "0" }
            let positive = AttributeCatalog.textColumns
                .map { stringMatch(column: "i.\($0)", pattern: pattern) }
                .joined(separator: " OR ")
            return op == .notEqual ? "(NOT (\(positive)))" : "(\(positive))"
        }
        if let builtin = AttributeCatalog.lookup(name) {
            let column = "i.\(builtin.column)"
            switch value {
            case .string(let pattern):
                let positive = pattern.isPresenceTest
                    ? (builtin.kind.isText ? "(\(column) IS NOT NULL AND \(column) <> '')" : "(\(column) IS NOT NULL)")
                    : stringMatch(column: column, pattern: pattern)
                return op == .notEqual ? "(NOT \(positive))" : positive
            case .number, .time:
                let operand = bind(number(value, forDate: builtin.kind == .date))
                if op == .notEqual {
                    return "(\(column) IS NULL OR \(column) <> \(operand))"
                }
                let sqlOperator = op == .equal ? "=" : op.rawValue
                return "COALESCE(\(column) \(sqlOperator) \(operand), 0)"
            }
        }
        // A custom attribute.
        let key = bind(name)
        let positive: String
        switch value {
        case .string(let pattern):
            if pattern.isPresenceTest {
                positive = "EXISTS (SELECT 1 FROM spotlightCustomAttribute a WHERE a.itemId = i.id AND a.key = \(key))"
            } else {
                let match = stringMatch(column: "a.textValue", pattern: pattern)
                positive = "EXISTS (SELECT 1 FROM spotlightCustomAttribute a WHERE a.itemId = i.id AND a.key = \(key) AND a.kind = 'string' AND \(match))"
            }
            return op == .notEqual ? "(NOT \(positive))" : positive
        case .number, .time:
            let comparisonOperator = op == .notEqual || op == .equal ? "=" : op.rawValue
            let clause: String
            if case .time = value {
                let operand = bind(number(value, forDate: true))
                clause = "a.kind = 'date' AND a.numberValue \(comparisonOperator) \(operand)"
            } else {
                let raw = bind(number(value, forDate: false))
                let date = bind(number(value, forDate: true))
                clause = "((a.kind = 'number' AND a.numberValue \(comparisonOperator) \(raw)) OR (a.kind = 'date' AND a.numberValue \(comparisonOperator) \(date)))"
            }
            positive = "EXISTS (SELECT 1 FROM spotlightCustomAttribute a WHERE a.itemId = i.id AND a.key = \(key) AND \(clause))"
            return op == .notEqual ? "(NOT \(positive))" : positive
        }
    }

    /// The exact match, behind a `LIKE` prefilter when the pattern has ASCII literals.
    ///
    /// `spotlight_match` decides; the prefilter only rejects early, in SQLite's
    /// own code, ASCII values that cannot match (see ``likePrefilters(_:)``).
    /// Values with non-ASCII text always reach the exact match, because case and
    /// diacritic folding can turn their characters into the pattern's letters.
    private mutating func stringMatch(column: String, pattern: StringPattern) -> String {
        let likes = Self.likePrefilters(pattern)
        var prefilter = ""
        if !likes.isEmpty {
            let conditions = likes.map { "\(column) LIKE \(bind($0)) ESCAPE '\\'" }.joined(separator: " AND ")
            prefilter = "(length(\(column)) <> length(CAST(\(column) AS BLOB)) OR (\(conditions))) AND "
        }
        let encoded = bind(pattern.encoded)
        let flags = bind(pattern.modifiers.rawValue)
        return "(\(prefilter)spotlight_match(\(column), \(encoded), \(flags)))"
    }

    /// `LIKE` patterns that every ASCII value matching `pattern` satisfies.
    ///
    /// An ASCII value matches only when its folded text contains the pattern's
    /// folded literal runs, in order (for the `t` modifier, those of each
    /// token, tokens in any order). `LIKE` ignores ASCII case, so it accepts
    /// at least every such value with or without the `c` modifier.
    static func likePrefilters(_ pattern: StringPattern) -> [String] {
        guard !pattern.isPresenceTest, let ascii = CompiledPattern(pattern).ascii else { return [] }
        let sequences = pattern.modifiers.contains(.tokenized) ? ascii.tokens : [ascii.units]
        return sequences.compactMap { units in
            var like = "%"
            var endsWithWildcard = true
            var hasLiteral = false
            for unit in units {
                switch unit {
                case .wildcard:
                    if !endsWithWildcard { like.append("%") }
                    endsWithWildcard = true
                case .literal(let byte):
                    let character = Character(Unicode.Scalar(byte))
                    if character == "%" || character == "_" || character == "\\" { like.append("\\") }
                    like.append(character)
                    endsWithWildcard = false
                    hasLiteral = true
                }
            }
            if !endsWithWildcard { like.append("%") }
            return hasLiteral ? like : nil
        }
    }
}

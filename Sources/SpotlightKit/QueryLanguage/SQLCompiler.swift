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
///
/// The SQL stays within SQLite's parser limits for every query that parses:
/// chains of `&&` and `||` become flat groups of at most ``groupSize`` operands
/// nested as a balanced tree (1,000 terms nest three deep), `!` is moved onto
/// the comparisons (`!(a || b)` is `!a && !b`, `!!a` is `a`), so only changes
/// between `AND` and `OR` nest. A query nested deeper than ``maxBooleanDepth``
/// of those is refused with a located error before SQLite sees it.
struct QuerySQLCompiler {
    /// The most operands joined by one flat `AND` or `OR`.
    static let groupSize = 16
    /// The most nested `AND`/`OR` groups, well within SQLite's parser stack.
    static let maxBooleanDepth = 24

    /// Seconds between 1970-01-01 and 2001-01-01: bare numbers compared with dates are seconds since 2001.
    static let referenceDateOffset = 978_307_200.0

    var environment: QueryEnvironment
    private var arguments: [DatabaseValue] = []
    private var depth = 0
    private var deepest: (depth: Int, column: Int) = (0, 1)

    init(environment: QueryEnvironment) {
        self.environment = environment
    }

    /// Translates an expression.
    ///
    /// - Throws: ``SpotlightError/invalidQuery(query:column:message:)`` at the deepest comparison
    ///   when `&&`, `||` and `!` alternate more than ``maxBooleanDepth`` levels deep.
    static func compile(_ expression: QueryExpression, environment: QueryEnvironment) throws -> CompiledFilter {
        var compiler = QuerySQLCompiler(environment: environment)
        let sql = compiler.compile(expression.root, negated: false)
        if compiler.deepest.depth > maxBooleanDepth {
            throw SpotlightError.invalidQuery(
                query: expression.source, column: compiler.deepest.column,
                message: "This comparison sits \(compiler.deepest.depth) levels deep in alternating &&, || and !; "
                    + "the limit is \(maxBooleanDepth): simplify the query")
        }
        return CompiledFilter(sql: sql, arguments: compiler.arguments)
    }

    private mutating func bind(_ value: some DatabaseValueConvertible) -> String {
        arguments.append(value.databaseValue)
        return "?"
    }

    /// The SQL of a node, or of its negation: `!` moves down to the comparisons by De Morgan's
    /// laws, which hold for SQL's NULL as well.
    private mutating func compile(_ node: QueryNode, negated: Bool) -> String {
        switch node {
        case .and, .or:
            var isAnd = false
            if case .and = node { isAnd = true }
            let operands = node.operands(ofAnd: isAnd)
            let levels = Self.groupLevels(operands.count)
            depth += levels
            defer { depth -= levels }
            let parts = operands.map { compile($0, negated: negated) }
            return Self.balanced(parts, joinedBy: isAnd != negated ? "AND" : "OR")
        case .not(let inner):
            return compile(inner, negated: !negated)
        case .comparison(let attribute, _, _, _), .inRange(let attribute, _, _, _, _):
            if depth > deepest.depth { deepest = (depth, attribute.column) }
            let sql = leaf(node)
            return negated ? "(NOT \(sql))" : sql
        }
    }

    /// How many nested groups ``balanced(_:joinedBy:)`` makes of `count` operands.
    static func groupLevels(_ count: Int) -> Int {
        var levels = 0
        var remaining = count
        while remaining > 1 {
            remaining = (remaining + groupSize - 1) / groupSize
            levels += 1
        }
        return levels
    }

    private mutating func leaf(_ node: QueryNode) -> String {
        switch node {
        case .and, .or, .not:
            return compile(node, negated: false)
        case .comparison(let attribute, let op, let value, _):
            return comparison(attribute.name, op, value)
        case .inRange(let attribute, let lower, let upper, _, _):
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

    /// Operands joined by `AND` or `OR` in flat groups, the groups joined the same way, until one remains.
    static func balanced(_ operands: [String], joinedBy word: String) -> String {
        var level = operands
        repeat {
            level = stride(from: 0, to: level.count, by: groupSize).map { start in
                let group = level[start..<min(level.count, start + groupSize)]
                return group.count == 1 ? group.first! : "(" + group.joined(separator: " \(word) ") + ")"
            }
        } while level.count > 1
        return level.first ?? (word == "AND" ? "1" : "0")
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
                let positive =
                    pattern.isPresenceTest
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
                positive =
                    "EXISTS (SELECT 1 FROM spotlightCustomAttribute a WHERE a.itemId = i.id AND a.key = \(key) AND a.kind = 'string' AND \(match))"
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
                clause =
                    "((a.kind = 'number' AND a.numberValue \(comparisonOperator) \(raw)) OR (a.kind = 'date' AND a.numberValue \(comparisonOperator) \(date)))"
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

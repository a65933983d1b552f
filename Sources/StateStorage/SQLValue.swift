import Foundation

/// A value bound to a statement's `?` or read from a result column, the same for every
/// database the state is kept in.
///
/// Dates are stored as seconds since 1970 (``real(_:)``), booleans as 0 or 1 (``integer(_:)``),
/// so that one SQL text serves SQLite and PostgreSQL.
///
/// ```swift
/// try connection.execute("UPDATE claim SET status = ?, endedAt = ? WHERE id = ?", ["succeeded", .date(now), .integer(id)])
/// ```
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// A date as seconds since 1970, or null.
    public static func date(_ date: Date?) -> SQLValue {
        date.map { .real($0.timeIntervalSince1970) } ?? .null
    }

    /// A boolean as 1 or 0.
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    /// A text, or null.
    public static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }

    /// A number, or null.
    public static func optional(_ number: Int64?) -> SQLValue { number.map(SQLValue.integer) ?? .null }

    /// A number, or null.
    public static func optional(_ number: Double?) -> SQLValue { number.map(SQLValue.real) ?? .null }

    /// The value as an integer (a real is truncated), or `nil` for null and text.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(value)
        case .null, .text: nil
        }
    }

    /// The value as a real number, or `nil` for null and text.
    public var realValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .null, .text: nil
        }
    }

    /// The value as a text, or `nil` for null and numbers.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// One result row: its columns by name (as the statement names them, lowercased by
/// PostgreSQL unless quoted: write column aliases in lowercase or quote them).
///
/// ```swift
/// for row in try connection.rows("SELECT id, status FROM claim WHERE automationKey = ?", [.text(key)]) {
///     print(row.integer("id") ?? 0, row.text("status") ?? "")
/// }
/// ```
public struct SQLRow: Sendable {
    public var values: [String: SQLValue]

    public init(_ values: [String: SQLValue]) {
        self.values = values
    }

    /// A column's value; null when the row has no such column. Names are compared without case.
    public subscript(_ column: String) -> SQLValue {
        values[column] ?? values[column.lowercased()] ?? .null
    }

    public func integer(_ column: String) -> Int64? { self[column].integerValue }
    public func int(_ column: String) -> Int? { self[column].integerValue.map(Int.init) }
    public func real(_ column: String) -> Double? { self[column].realValue }
    public func text(_ column: String) -> String? { self[column].textValue }
    public func bool(_ column: String) -> Bool { (self[column].integerValue ?? 0) != 0 }
    public func date(_ column: String) -> Date? { self[column].realValue.map(Date.init(timeIntervalSince1970:)) }
}

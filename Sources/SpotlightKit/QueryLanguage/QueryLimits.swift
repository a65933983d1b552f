import Foundation

/// The limits of the query language and of typed searches.
///
/// A query within them parses and runs; a query beyond them gets a located
/// ``SpotlightError/invalidQuery(query:column:message:)`` naming the limit,
/// never a crash or a database error.
///
/// ```swift
/// let tooLong = String(repeating: "(", count: QueryLimits.maxQueryLength + 1)
/// // QueryExpression.parse(tooLong) throws "Invalid query at column 10001: The query is 10001 characters long; ..."
/// ```
public enum QueryLimits {
    /// The most characters in a query string.
    public static let maxQueryLength = 10_000
    /// How deep parentheses may nest.
    ///
    /// Chains of `&&` or `||` need no parentheses and have no limit of their own;
    /// `!` written several times in a row counts once.
    public static let maxNestingDepth = 16
    /// The most characters in one quoted string or bare word value.
    public static let maxPatternLength = 1_000
    /// The words of a typed search that are searched; the words after them are left out.
    public static let maxTypedWords = 32

    /// The largest offset of each `$time` value, in its own unit: 10,000 years either way.
    static func maxTimeOffset(_ name: String) -> Double {
        switch name {
        case "now": return 315_576_000_000  // seconds
        case "today", "yesterday": return 3_652_425  // days
        case "this_week": return 521_775
        case "this_month": return 120_000
        default: return 10_000  // years
        }
    }

    static func timeUnit(_ name: String) -> String {
        switch name {
        case "now": return "seconds"
        case "today", "yesterday": return "days"
        case "this_week": return "weeks"
        case "this_month": return "months"
        default: return "years"
        }
    }
}

/// Why a cron expression was rejected. Each case renders its own message.
enum CronErrorReason: Equatable, Sendable, CustomStringConvertible {
    case emptyExpression
    case wrongFieldCount(found: Int)
    case unknownMacro(String, suggestion: String)
    case textAfterMacro(String)
    case outOfRange(String, bounds: ClosedRange<Int>)
    case unknownName(String, suggestion: String)
    case nameOfOtherField(String, field: CronField, expected: CronField)
    case notAValue(String, field: CronField)
    case zeroStep
    case stepTooLarge(String, maximum: Int)
    case stepNotANumber(String)
    case missingStep
    case reversedRange(String, wrapAround: String)
    case missingRangeEnd(String)
    case missingValue(before: Character)
    case unexpectedCharacter(Character)
    case emptyListItem
    case misplacedNearestWeekday
    case misplacedLast
    case misplacedNth
    case nearestWeekdayNeedsSingleDay
    case nthNeedsSingleWeekday
    case lastNeedsSingleWeekday
    case lastNeedsWeekday
    case ordinalOutOfRange(String)
    case missingOrdinal
    case lastDayOffsetOutOfRange(String)
    case missingLastDayOffset
    case questionMarkNotAllowed
    case questionMarkNotAlone

    var description: String {
        switch self {
        case .emptyExpression:
            "the expression is empty; expected 5 fields (minute hour day-of-month month day-of-week), "
                + "6 with a leading seconds field, or a macro such as @daily"
        case .wrongFieldCount(let found):
            "expected 5 fields (minute hour day-of-month month day-of-week) "
                + "or 6 with a leading seconds field, but found \(found)"
        case .unknownMacro(let text, let suggestion):
            "unknown macro \(text); did you mean \(suggestion)?"
        case .textAfterMacro(let macro):
            "\(macro) must be the whole expression; remove the text after it"
        case .outOfRange(let text, let bounds):
            "\(text) is out of range \(bounds.lowerBound)–\(bounds.upperBound)"
        case .unknownName(let text, let suggestion):
            "unknown name '\(text)'; did you mean \(suggestion)?"
        case .nameOfOtherField(let text, let field, let expected):
            "\(text.uppercased()) is a \(field == .month ? "month" : "day-of-week") name; "
                + "expected \(expected.acceptedValues)"
        case .notAValue(let text, let field):
            "'\(text)' is not valid here; expected \(field.acceptedValues)"
        case .zeroStep:
            "step 0 is not allowed; use a step of 1 or more"
        case .stepTooLarge(let text, let maximum):
            "step \(text) is too large; use a step of at most \(maximum)"
        case .stepNotANumber(let text):
            "step '\(text)' is not a number"
        case .missingStep:
            "expected a step number after '/'"
        case .reversedRange(let text, let wrapAround):
            "range \(text) is reversed; write the smaller value first, or use \(wrapAround) to wrap around"
        case .missingRangeEnd(let text):
            "range \(text)- is missing its end value"
        case .missingValue(let character):
            "expected a value before '\(character)'"
        case .unexpectedCharacter(let character):
            "unexpected character '\(character)'"
        case .emptyListItem:
            "empty list item; remove the extra comma"
        case .misplacedNearestWeekday:
            "W (nearest weekday) is only allowed in the day-of-month field"
        case .misplacedLast:
            "L (last) is only allowed in the day-of-month and day-of-week fields"
        case .misplacedNth:
            "# (nth weekday of the month) is only allowed in the day-of-week field"
        case .nearestWeekdayNeedsSingleDay:
            "W needs a single day of month, such as 15W or LW; it cannot be combined with a range or step"
        case .nthNeedsSingleWeekday:
            "# needs a single weekday, such as FRI#3; it cannot be combined with a range or step"
        case .lastNeedsSingleWeekday:
            "L after a weekday needs a single weekday, such as 5L or FRIL; "
                + "it cannot be combined with a range or step"
        case .lastNeedsWeekday:
            "L in the day-of-week field needs a weekday before it, such as 5L or FRIL for the last Friday"
        case .ordinalOutOfRange(let text):
            "ordinal \(text) is out of range 1–5"
        case .missingOrdinal:
            "expected an ordinal 1–5 after '#', such as FRI#3"
        case .lastDayOffsetOutOfRange(let text):
            "offset \(text) in L-\(text) is out of range 0–30"
        case .missingLastDayOffset:
            "expected a number of days after 'L-', such as L-3"
        case .questionMarkNotAllowed:
            "? (no specific value) is only allowed in the day-of-month and day-of-week fields"
        case .questionMarkNotAlone:
            "? must be the whole field"
        }
    }
}

/// A cron expression that could not be parsed, with the position of the problem.
///
/// The ``description`` reads like `field 3 (day of month): 32 is out of range 1–31`;
/// ``column`` lets a caller point at the offending text:
///
/// ```swift
/// do {
///     _ = try CronExpression("0 0 32 * *")
/// } catch {
///     print("0 0 32 * *")
///     print(String(repeating: " ", count: error.column - 1) + "^")
///     print(error)  // field 3 (day of month): 32 is out of range 1–31
/// }
/// ```
public struct CronError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The 1-based position of the offending field as written (with six fields
    /// the seconds field is field 1), or `nil` when the problem concerns the
    /// expression as a whole, such as a wrong number of fields.
    ///
    /// ```swift
    /// // "0 0 * 13 *" → fieldIndex 4 (month); "0 0 * *" → nil (wrong field count)
    /// ```
    public let fieldIndex: Int?

    /// The 1-based character offset in the expression of the offending text.
    ///
    /// For a missing field it points just past the last field.
    ///
    /// ```swift
    /// // "0 0 32 * *" → column 5, where "32" starts
    /// let caret = String(repeating: " ", count: error.column - 1) + "^"
    /// ```
    public let column: Int
    let field: CronField?
    let reason: CronErrorReason

    init(fieldIndex: Int?, field: CronField?, column: Int, reason: CronErrorReason) {
        self.fieldIndex = fieldIndex
        self.field = field
        self.column = column
        self.reason = reason
    }

    /// The problem itself, without the field prefix.
    ///
    /// ```swift
    /// // "0 0 32 * *" → "32 is out of range 1–31"
    /// // "0 0 * * FRY" → "unknown name 'FRY'; did you mean FRI?"
    /// ```
    public var message: String { reason.description }

    /// The name of the offending field, or `nil` for whole-expression problems.
    ///
    /// ```swift
    /// // "0 0 32 * *" → "day of month"
    /// ```
    public var fieldName: String? { field?.displayName }

    /// The full message, prefixed with the field when there is one.
    ///
    /// ```swift
    /// // "0 0 32 * *" → "field 3 (day of month): 32 is out of range 1–31"
    /// ```
    public var description: String {
        guard let fieldIndex, let field else { return message }
        return "field \(fieldIndex) (\(field.displayName)): \(message)"
    }
}

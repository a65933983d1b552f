import Foundation

/// The documented conversions between value kinds, used whenever a value feeds a parameter,
/// a property comparison or a workflow condition.
///
/// | to        | accepts                                                                  |
/// |-----------|--------------------------------------------------------------------------|
/// | String    | text; numbers, booleans, dates, URLs, enum cases and entities as text    |
/// | Int       | integers; doubles without a fraction; text that parses as an integer      |
/// | Double    | numbers; text that parses as a number                                     |
/// | Bool      | booleans; `true/false/yes/no/on/off/1/0` in any case; the integers 0 and 1 |
/// | Date      | dates; ISO 8601 text: `2018-08-14` (midnight UTC) or a date and time        |
/// | URL       | URLs; text with a scheme, or a path (becomes a file URL)                  |
/// | UUID      | text in UUID form                                                         |
/// | File      | files; file URLs; text (a path)                                           |
/// | [T]       | lists, element by element; a single value becomes a one-element list       |
/// | T?        | `null`, or whatever T accepts                                             |
///
/// Enum cases convert by raw value or case title (``AppEnum``); entities resolve through the
/// entity's queries, which is asynchronous and done by the engine (``EntityResolver``).
///
/// It is the one conversion path: parameters, property comparisons, workflow inputs and `ask`
/// answers all convert through it.
package enum ValueCoercion {
    /// Converts a value to a type by the rules above, keeping entities and `Any` as they are.
    ///
    /// ```swift
    /// try ValueCoercion.coerce(.string("3"), to: .int)            // .int(3)
    /// try ValueCoercion.coerce(.string("1,2"), to: .list(.int))   // throws: a list is expected
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - type: The type wanted.
    /// - Returns: The value of that type (a UUID as its text).
    /// - Throws: ``ValueConversionError`` saying what was expected.
    package static func coerce(_ value: IntentValue, to type: IntentValueType) throws -> IntentValue {
        switch type {
        case .optional(let wrapped): return value.isNull ? .null : try coerce(value, to: wrapped)
        case .list(let element): return .list(try value.elements.map { try coerce($0, to: element) })
        case .dictionary(let valueType):
            switch value {
            case .dictionary(let entries): return .dictionary(try entries.mapValues { try coerce($0, to: valueType) })
            case .null: return .dictionary([:])
            default: throw ValueConversionError(value: value, expectedType: type, hint: "write a mapping such as { name: value }")
            }
        case .string: return .string(try string(from: value))
        case .int: return .int(try int(from: value))
        case .double: return .double(try double(from: value))
        case .bool: return .bool(try bool(from: value))
        case .date: return .date(try date(from: value))
        case .url: return .url(try url(from: value))
        case .uuid: return .string(try uuid(from: value).uuidString)
        case .file: return .file(try file(from: value))
        case .enumeration(let reference):
            switch reference.definition {
            case .swift(let type): return try type.init(intentValue: value).intentValue
            case .hosted(let hosted): return try hosted.coerce(value)
            }
        case .entity, .any: return value
        }
    }

    static func string(from value: IntentValue) throws -> String {
        switch value {
        case .string(let text): return text
        case .int, .double, .bool, .date, .url, .enumCase, .entity, .file: return value.displayText
        default: throw ValueConversionError(value: value, expectedType: .string)
        }
    }

    static func int(from value: IntentValue) throws -> Int {
        switch value {
        case .int(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 9e18:
            return Int(number)
        case .string(let text):
            if let number = Int(text.trimmingCharacters(in: .whitespaces)) { return number }
            throw ValueConversionError(value: value, expectedType: .int, hint: "write a whole number such as 3")
        default: throw ValueConversionError(value: value, expectedType: .int)
        }
    }

    static func double(from value: IntentValue) throws -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .string(let text):
            if let number = Double(text.trimmingCharacters(in: .whitespaces)) { return number }
            throw ValueConversionError(value: value, expectedType: .double, hint: "write a number such as 2.5")
        default: throw ValueConversionError(value: value, expectedType: .double)
        }
    }

    static func bool(from value: IntentValue) throws -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .int(0): return false
        case .int(1): return true
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: break
            }
            throw ValueConversionError(value: value, expectedType: .bool, hint: "write true or false")
        default: throw ValueConversionError(value: value, expectedType: .bool)
        }
    }

    static func date(from value: IntentValue) throws -> Date {
        switch value {
        case .date(let date): return date
        case .string(let text):
            if let date = DateText.parse(text) { return date }
            throw ValueConversionError(
                value: value, expectedType: .date, hint: "write an ISO 8601 date such as 2018-08-14 or 2018-08-14T09:30:00Z")
        default: throw ValueConversionError(value: value, expectedType: .date)
        }
    }

    static func url(from value: IntentValue) throws -> URL {
        switch value {
        case .url(let url): return url
        case .file(let file): return file.fileURL
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("/") || trimmed.hasPrefix("./") || trimmed.hasPrefix("~/") {
                return URL(fileURLWithPath: (trimmed as NSString).expandingTildeInPath)
            }
            if let url = URL(string: trimmed), url.scheme != nil { return url }
            throw ValueConversionError(value: value, expectedType: .url, hint: "write a URL with a scheme, such as https://example.com, or a path")
        default: throw ValueConversionError(value: value, expectedType: .url)
        }
    }

    static func uuid(from value: IntentValue) throws -> UUID {
        if case .string(let text) = value, let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) {
            return uuid
        }
        throw ValueConversionError(value: value, expectedType: .uuid, hint: "write a UUID such as E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    }

    static func file(from value: IntentValue) throws -> IntentFile {
        switch value {
        case .file(let file): return file
        case .url(let url) where url.isFileURL: return IntentFile(fileURL: url)
        case .string(let text) where !text.isEmpty:
            return IntentFile(fileURL: URL(fileURLWithPath: (text as NSString).expandingTildeInPath))
        default: throw ValueConversionError(value: value, expectedType: .file, hint: "give a file path")
        }
    }
}

/// How dates are written and read as text: ISO 8601, with a date alone meaning midnight UTC.
///
/// ```swift
/// DateText.parse("2018-08-14")          // 2018-08-14 00:00:00 UTC
/// DateText.format(someDate)              // "2018-08-14" or "2018-08-14T09:30:00Z"
/// ```
public enum DateText {
    /// Parses an ISO 8601 date (`2018-08-14`), date and time (`2018-08-14T09:30:00Z`,
    /// `2018-08-14T09:30:00+02:00`, fractional seconds allowed) or a year and month (`2018-08`).
    ///
    /// - Parameter text: The text to read.
    /// - Returns: The date, or `nil` when the text is not in one of these forms.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0])
        else { return nil }
        let month = parts.count > 1 ? Int(parts[1]) ?? 0 : 1
        let day = parts.count > 2 ? Int(parts[2]) ?? 0 : 1
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        components.timeZone = TimeZone(identifier: "UTC")
        let date = utcCalendar.date(from: components)
        // Reject days that roll over into the next month, such as 2023-02-30.
        guard let date, utcCalendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// Formats a date: the day alone when it is midnight UTC, else the full ISO 8601 instant.
    ///
    /// - Parameter date: The date to write.
    /// - Returns: Text that ``parse(_:)`` reads back to the same date.
    public static func format(_ date: Date) -> String {
        let components = utcCalendar.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        if components.hour == 0, components.minute == 0, components.second == 0, (components.nanosecond ?? 0) < 1_000 {
            return date.formatted(.iso8601.year().month().day())
        }
        return date.formatted(.iso8601)
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()
}

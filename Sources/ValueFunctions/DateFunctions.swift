import Foundation
import IntentKit

/// Date arithmetic, formatting and parsing, in a time zone and a locale.
///
/// Days, weeks, months and years are calendar units: adding a day keeps the wall-clock time
/// across a daylight-saving change in the time zone, and adding a month to January 31 gives the
/// last day of February. Seconds, minutes and hours are exact durations.
///
/// ```swift
/// let zone = try DateFunctions.timeZone("Europe/Paris")
/// let next = try DateFunctions.add(1, .month, to: date, in: zone)
/// try DateFunctions.format(date, style: .pattern("yyyy-MM-dd HH:mm"), timeZone: zone)   // "2024-05-01 10:00"
/// try DateFunctions.parse("01/05/2024", pattern: "dd/MM/yyyy", timeZone: zone)
/// try DateFunctions.difference(from: start, to: end, in: .day)                       // 3
/// ```
public enum DateFunctions {
    /// A unit of time.
    public enum Unit: String, Sendable, CaseIterable {
        case second, minute, hour, day, week, month, year

        var component: Calendar.Component {
            switch self {
            case .second: .second
            case .minute: .minute
            case .hour: .hour
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            case .year: .year
            }
        }

        /// Reads a unit by name, singular or plural (`days`), in any case.
        ///
        /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` naming the units.
        public init(named name: String, argument: String = "unit") throws {
            var key = name.lowercased().trimmingCharacters(in: .whitespaces)
            if key.hasSuffix("s"), key.count > 1 { key.removeLast() }
            guard let unit = Unit(rawValue: key) else {
                throw ValueFunctionError.invalidArgument(
                    argument: argument, reason: "'\(name)' is not a unit; units are " + Unit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self = unit
        }
    }

    /// A time zone by IANA name (`Europe/Paris`), `UTC`, or an offset (`+02:00`); the system's when `nil`.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` for an unknown name.
    public static func timeZone(_ name: String?, argument: String = "timeZone") throws -> TimeZone {
        guard let name, !name.isEmpty else { return .current }
        if let zone = TimeZone(identifier: name) ?? TimeZone(abbreviation: name) { return zone }
        if let seconds = offsetSeconds(name), let zone = TimeZone(secondsFromGMT: seconds) { return zone }
        throw ValueFunctionError.invalidArgument(
            argument: argument, reason: "'\(name)' is not a time zone; write an IANA name such as Europe/Paris, UTC, or an offset such as +02:00")
    }

    private static func offsetSeconds(_ text: String) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let parts = text.dropFirst().split(separator: ":")
        guard (1...2).contains(parts.count), let hours = Int(parts[0]), (0...14).contains(hours) else { return nil }
        let minutes = parts.count == 2 ? Int(parts[1]) ?? -1 : 0
        guard (0..<60).contains(minutes) else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// A locale by identifier (`en_US`, `ja_JP`, `fr`); the system's when `nil`.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` for an identifier no language has.
    public static func locale(_ identifier: String?, argument: String = "locale") throws -> Locale {
        guard let identifier, !identifier.isEmpty else { return .current }
        let locale = Locale(identifier: identifier)
        guard let language = locale.language.languageCode?.identifier,
            Locale.LanguageCode.isoLanguageCodes.contains(where: { $0.identifier == language })
        else {
            throw ValueFunctionError.invalidArgument(
                argument: argument, reason: "'\(identifier)' is not a locale; write one such as en_US, fr_FR or ja_JP")
        }
        return locale
    }

    static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// Adds an amount of a unit to a date (a negative amount subtracts).
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when the result is out of the calendar's range.
    public static func add(_ amount: Int, _ unit: Unit, to date: Date, in zone: TimeZone = .current) throws -> Date {
        let result: Date?
        switch unit {
        case .second, .minute, .hour:
            let seconds = unit == .second ? 1 : unit == .minute ? 60 : 3600
            result = date.addingTimeInterval(Double(amount) * Double(seconds))
        default:
            result = calendar(in: zone).date(byAdding: unit.component, value: amount, to: date)
        }
        guard let result else {
            throw ValueFunctionError.invalidArgument(argument: "amount", reason: "\(amount) \(unit.rawValue)(s) leave the calendar")
        }
        return result
    }

    /// The number of whole units from one date to another: negative when `end` is before
    /// `start`, rounded toward zero.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when the number is
    ///   beyond a whole number's range (dates hundreds of billions of years apart).
    public static func difference(from start: Date, to end: Date, in unit: Unit, timeZone zone: TimeZone = .current) throws -> Int {
        switch unit {
        case .second, .minute, .hour:
            let seconds: Double = unit == .second ? 1 : unit == .minute ? 60 : 3600
            guard let whole = Int(exactly: (end.timeIntervalSince(start) / seconds).rounded(.towardZero)) else {
                throw ValueFunctionError.invalidArgument(
                    argument: "end", reason: "the dates are too far apart to count in \(unit.rawValue)s as a whole number")
            }
            return whole
        default:
            return calendar(in: zone).dateComponents([unit.component], from: start, to: end).value(for: unit.component) ?? 0
        }
    }

    /// How ``format(_:style:timeZone:locale:)`` writes a date.
    public enum Style: Sendable, Equatable {
        /// `2024-05-01T08:00:00Z`, or with the offset of a time zone: `2024-05-01T10:00:00+02:00`.
        case iso8601
        /// The locale's short form of the date (`5/1/24`), with or without the time.
        case short(time: Bool)
        /// The locale's medium form (`May 1, 2024`).
        case medium(time: Bool)
        /// The locale's long form (`May 1, 2024 at 10:00:00 AM GMT+2`).
        case long(time: Bool)
        /// The locale's full form (`Wednesday, May 1, 2024`).
        case full(time: Bool)
        /// The time alone, in the locale's short form (`10:00 AM`).
        case time
        /// A Unicode pattern such as `yyyy-MM-dd HH:mm` or `EEEE d MMMM`.
        case pattern(String)
    }

    /// Writes a date as text.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` for an empty pattern.
    public static func format(_ date: Date, style: Style, timeZone zone: TimeZone = .current, locale: Locale = .current) throws -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = locale
        formatter.calendar = calendar(in: zone)
        switch style {
        case .iso8601:
            let iso = ISO8601DateFormatter()
            iso.timeZone = zone
            iso.formatOptions = [.withInternetDateTime]
            if date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970 { iso.formatOptions.insert(.withFractionalSeconds) }
            return iso.string(from: date)
        case .short(let time), .medium(let time), .long(let time), .full(let time):
            let dateStyle: DateFormatter.Style =
                switch style {
                case .short: .short
                case .medium: .medium
                case .long: .long
                default: .full
                }
            formatter.dateStyle = dateStyle
            formatter.timeStyle = time ? (dateStyle == .full ? .long : dateStyle) : .none
        case .time:
            formatter.dateStyle = .none
            formatter.timeStyle = .short
        case .pattern(let pattern):
            if let problem = patternProblem(in: pattern) {
                throw ValueFunctionError.invalidArgument(argument: "pattern", reason: problem)
            }
            formatter.dateFormat = pattern
        }
        return formatter.string(from: date)
    }

    /// The letters a Unicode date pattern gives a meaning to (`yyyy`, `MM`, `dd`, `HH`, `EEE`…);
    /// every other ASCII letter is reserved and must be quoted to appear as itself.
    private static let patternLetters = Set("GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx")

    /// Why a Unicode date pattern cannot be used, or `nil` when it can: what a validator says
    /// about a literal pattern before anything runs.
    ///
    /// Letters must be pattern letters; other text is written between single quotes (`''`
    /// is a quote itself), and every quote is closed.
    ///
    /// ```swift
    /// DateFunctions.patternProblem(in: "yyyy-MM-dd")            // nil
    /// DateFunctions.patternProblem(in: "yyyy-MM-ddTHH:mm")      // "'T' is not a date pattern letter; …"
    /// ```
    public static func patternProblem(in pattern: String) -> String? {
        guard !pattern.isEmpty else { return "the pattern is empty; write one such as yyyy-MM-dd" }
        var quoted = false
        for character in pattern {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character.isASCII, character.isLetter, !patternLetters.contains(character) {
                return "'\(character)' is not a date pattern letter; write literal text between single quotes, as in yyyy-MM-dd'\(character)'HH:mm"
            }
        }
        return quoted ? "a quote is not closed; write literal text between two single quotes, and '' for a quote itself" : nil
    }

    /// Reads a date from text: with a pattern exactly as it says, else ISO 8601 (`2024-05-01`,
    /// `2024-05-01T10:00:00+02:00`) or `2024-05-01 10:00[:00]` in the time zone.
    ///
    /// - Throws: ``ValueFunctionError/invalidDate(text:expected:)`` when the text does not fit.
    public static func parse(_ text: String, pattern: String? = nil, timeZone zone: TimeZone = .current, locale: Locale? = nil) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = locale ?? Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar(in: zone)
        formatter.isLenient = false
        if let pattern, !pattern.isEmpty {
            if let problem = patternProblem(in: pattern) {
                throw ValueFunctionError.invalidArgument(argument: "pattern", reason: problem)
            }
            formatter.dateFormat = pattern
            guard let date = formatter.date(from: trimmed) else { throw ValueFunctionError.invalidDate(text: text, expected: "'\(pattern)'") }
            return date
        }
        if let date = DateText.parse(trimmed) {
            // A date alone is midnight in the time zone, not in UTC.
            if !trimmed.contains("T"), trimmed.count <= 10 {
                formatter.dateFormat = trimmed.count == 10 ? "yyyy-MM-dd" : trimmed.count == 7 ? "yyyy-MM" : "yyyy"
                return formatter.date(from: trimmed) ?? date
            }
            return date
        }
        for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        throw ValueFunctionError.invalidDate(
            text: text, expected: "ISO 8601 (2024-05-01 or 2024-05-01T10:00:00Z) or 2024-05-01 10:00; give a pattern for other forms")
    }
}

import Foundation
import IntentKit
import ValueFunctions

extension DatesApp {
    /// Writes a date as text: ISO 8601 (with the time zone's offset), the locale's short,
    /// medium, long or full form (with or without the time), the time alone, or a Unicode
    /// pattern such as `yyyy-MM-dd HH:mm` (which wins over `style`).
    ///
    /// ```yaml
    /// - perform: Dates.Format
    ///   with: { date: "${now}", style: long, timeZone: Asia/Tokyo, locale: ja_JP }
    /// ```
    public struct Format: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Format Date"
        public static let description = IntentDescription("Writes a date as text in a style or a pattern, a time zone and a locale.")

        @Parameter(title: "Date")
        public var date: Date

        @Parameter(title: "Style", default: .iso8601)
        public var style: DateStyle

        @Parameter(title: "Include Time", default: true)
        public var includeTime: Bool

        @Parameter(title: "Pattern", description: "A Unicode date pattern such as yyyy-MM-dd HH:mm.")
        public var pattern: String?

        @Parameter(title: "Time Zone")
        public var timeZone: String?

        @Parameter(title: "Locale")
        public var locale: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Format \(\.$date) as \(\.$style)") {
                \.$includeTime
                \.$pattern
                \.$timeZone
                \.$locale
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            let formatStyle: DateFunctions.Style
            if let pattern {
                formatStyle = .pattern(pattern)
            } else {
                switch style {
                case .iso8601: formatStyle = .iso8601
                case .short: formatStyle = .short(time: includeTime)
                case .medium: formatStyle = .medium(time: includeTime)
                case .long: formatStyle = .long(time: includeTime)
                case .full: formatStyle = .full(time: includeTime)
                case .time: formatStyle = .time
                }
            }
            let text = try DateFunctions.format(
                date, style: formatStyle, timeZone: try DateFunctions.timeZone(timeZone), locale: try DateFunctions.locale(locale))
            return .result(value: text)
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DatesApp.zoneLocaleAndPatternProblems(parameters)
        }
    }

    /// A style of ``Format``.
    public enum DateStyle: String, AppEnum {
        case iso8601, short, medium, long, full, time

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Date Style"
        public static let caseDisplayRepresentations: [DateStyle: DisplayRepresentation] = [
            .iso8601: "ISO 8601", .short: "Short", .medium: "Medium", .long: "Long", .full: "Full", .time: "Time Only"
        ]
    }
}

import Foundation
import IntentKit
import ValueFunctions

extension DatesApp {
    /// Reads a date from text: exactly as a Unicode pattern says when one is given, else ISO
    /// 8601 (`2024-05-01`, `2024-05-01T10:00:00+02:00`) or `2024-05-01 10:00`; a date or time
    /// without an offset is in the time zone (the system's by default).
    ///
    /// ```yaml
    /// - perform: Dates.Parse
    ///   with: { text: "01/05/2024", pattern: "dd/MM/yyyy", timeZone: Europe/Paris }
    /// ```
    public struct Parse: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Parse Date"
        public static let description = IntentDescription("Reads a date from text, in ISO 8601 or a pattern.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Pattern", description: "A Unicode date pattern such as dd/MM/yyyy.")
        public var pattern: String?

        @Parameter(title: "Time Zone")
        public var timeZone: String?

        @Parameter(title: "Locale", description: "The language of month and day names in the text; English by default.")
        public var locale: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Parse \(\.$text) as a date") {
                \.$pattern
                \.$timeZone
                \.$locale
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Date> {
            let zone = try DateFunctions.timeZone(timeZone)
            let locale = try locale.map { try DateFunctions.locale($0) }
            return .result(value: try DateFunctions.parse(text, pattern: pattern, timeZone: zone, locale: locale))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DatesApp.zoneLocaleAndPatternProblems(parameters)
        }
    }
}

import Foundation
import IntentKit
import ValueFunctions

extension DatesApp {
    /// The number of whole units from a start date to an end date: negative when the end
    /// is earlier, rounded toward zero. Days and longer follow the calendar in the time zone.
    ///
    /// ```yaml
    /// - perform: Dates.Difference
    ///   with: { start: "${file.modified}", end: "${now}", unit: day }
    /// ```
    public struct Difference: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Time Between Dates"
        public static let description = IntentDescription("Counts the whole seconds, minutes, hours, days, weeks, months or years between two dates.")

        @Parameter(title: "Start Date")
        public var start: Date

        @Parameter(title: "End Date")
        public var end: Date

        @Parameter(title: "Unit", default: .day)
        public var unit: DateUnit

        @Parameter(title: "Time Zone")
        public var timeZone: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("\(\.$unit) from \(\.$start) to \(\.$end)") {
                \.$timeZone
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Int> {
            .result(value: try DateFunctions.difference(from: start, to: end, in: unit.unit, timeZone: DateFunctions.timeZone(timeZone)))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DatesApp.zoneLocaleAndPatternProblems(parameters)
        }
    }
}

import Foundation
import IntentKit
import ValueFunctions

extension DatesApp {
    /// Adds an amount of a unit to a date, or subtracts it. Days, weeks, months and years
    /// follow the calendar in the time zone (the system's by default): a day later keeps the
    /// time of day across a daylight-saving change, a month after January 31 is the end of February.
    ///
    /// ```yaml
    /// - perform: Dates.Adjust
    ///   with: { date: "${now}", operation: subtract, amount: 7, unit: day }
    /// ```
    public struct Adjust: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Adjust Date"
        public static let description = IntentDescription("Adds or subtracts seconds, minutes, hours, days, weeks, months or years.")

        @Parameter(title: "Date")
        public var date: Date

        @Parameter(title: "Adjustment", default: .add)
        public var operation: Adjustment

        @Parameter(title: "Amount", default: 1)
        public var amount: Int

        @Parameter(title: "Unit", default: .day)
        public var unit: DateUnit

        @Parameter(title: "Time Zone")
        public var timeZone: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("\(\.$operation) \(\.$amount) \(\.$unit) to \(\.$date)") {
                \.$timeZone
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Date> {
            let zone = try DateFunctions.timeZone(timeZone)
            return .result(value: try DateFunctions.add(operation == .add ? amount : -amount, unit.unit, to: date, in: zone))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DatesApp.zoneLocaleAndPatternProblems(parameters)
        }
    }

    /// Whether ``Adjust`` adds or subtracts.
    public enum Adjustment: String, AppEnum {
        case add, subtract

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Adjustment"
        public static let caseDisplayRepresentations: [Adjustment: DisplayRepresentation] = [.add: "Add", .subtract: "Subtract"]
    }
}

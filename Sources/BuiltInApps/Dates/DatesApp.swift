import IntentKit
import ValueFunctions

/// Dates: add or subtract time, format and parse dates, and measure the time between two.
///
/// ```yaml
/// - perform: Dates.Adjust
///   with: { date: "${now}", amount: 7, unit: day, operation: subtract }
/// ```
public enum DatesApp {
    /// The app, as the `shortcuts` binary installs it.
    public static let app = IntentApp(
        name: "Dates", intents: [Adjust.self, Format.self, Parse.self, Difference.self], strings: BuiltInStrings.catalog(table: "Dates"))

    /// The problems of a literal time zone, locale or date pattern, reported at their parameters.
    static func zoneLocaleAndPatternProblems(_ parameters: [String: IntentValue]) -> [ParameterProblem] {
        var problems: [ParameterProblem] = []
        if case .string(let name)? = parameters["timeZone"] {
            do { _ = try DateFunctions.timeZone(name) } catch { problems.append(ParameterProblem(parameter: "timeZone", message: "\(error)")) }
        }
        if case .string(let identifier)? = parameters["locale"] {
            do { _ = try DateFunctions.locale(identifier) } catch { problems.append(ParameterProblem(parameter: "locale", message: "\(error)")) }
        }
        if case .string(let pattern)? = parameters["pattern"], let problem = DateFunctions.patternProblem(in: pattern) {
            problems.append(ParameterProblem(parameter: "pattern", message: "invalid date pattern: \(problem)"))
        }
        return problems
    }
}

extension DatesApp {
    /// A unit of time.
    public enum DateUnit: String, AppEnum {
        case second, minute, hour, day, week, month, year

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Unit"
        public static let caseDisplayRepresentations: [DateUnit: DisplayRepresentation] = [
            .second: "Seconds", .minute: "Minutes", .hour: "Hours", .day: "Days", .week: "Weeks", .month: "Months", .year: "Years"
        ]

        var unit: DateFunctions.Unit { DateFunctions.Unit(rawValue: rawValue) ?? .day }
    }
}

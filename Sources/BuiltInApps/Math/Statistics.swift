import IntentKit
import ValueFunctions

extension MathApp {
    /// Measures a list of numbers (text that reads as a number counts): sum, average,
    /// minimum, maximum, median, standard deviation (of the population) or count. Every
    /// measure but sum and count of an empty list fails the step.
    ///
    /// ```yaml
    /// - perform: Math.Statistics
    ///   with: { numbers: [3, 1, 2], measure: median }   # 2
    /// ```
    public struct Statistics: AppIntent {
        public static let title: LocalizedStringResource = "Calculate Statistics"
        public static let description = IntentDescription("Calculates the sum, average, median or another measure of a list of numbers.")

        @Parameter(title: "Numbers")
        public var numbers: [IntentValue]

        @Parameter(title: "Measure", default: .sum)
        public var measure: Measure

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Calculate the \(\.$measure) of \(\.$numbers)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Double> {
            let values = try StatisticsFunctions.numbers(from: numbers)
            return .result(value: try StatisticsFunctions.measure(StatisticsFunctions.Measure(rawValue: measure.rawValue) ?? .sum, of: values))
        }
    }

    /// A measure of ``Statistics``.
    public enum Measure: String, AppEnum {
        case sum, average, minimum, maximum, median, standardDeviation, count

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Measure"
        public static let caseDisplayRepresentations: [Measure: DisplayRepresentation] = [
            .sum: "Sum", .average: "Average", .minimum: "Minimum", .maximum: "Maximum", .median: "Median",
            .standardDeviation: "Standard Deviation", .count: "Count"
        ]
    }
}

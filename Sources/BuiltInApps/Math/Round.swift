import IntentKit
import ValueFunctions

extension MathApp {
    /// Rounds a number to a number of decimal places (negative places round to tens,
    /// hundreds…): to the nearest (halves away from zero), up or down.
    ///
    /// ```yaml
    /// - perform: Math.Round
    ///   with: { number: 2.345, places: 2, mode: down }   # 2.34
    /// ```
    public struct Round: AppIntent {
        public static let title: LocalizedStringResource = "Round Number"
        public static let description = IntentDescription("Rounds a number to a number of decimal places.")

        @Parameter(title: "Number")
        public var number: Double

        @Parameter(title: "Decimal Places", default: 0)
        public var places: Int

        @Parameter(title: "Rounding", default: .nearest)
        public var mode: RoundingMode

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Round \(\.$number) to \(\.$places) places") {
                \.$mode
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Double> {
            guard (-15...15).contains(places) else {
                throw ValueFunctionError.invalidArgument(argument: "places", reason: "\(places) is outside -15…15")
            }
            return .result(value: MathFunctions.round(number, places: places, rule: MathFunctions.Rule(rawValue: mode.rawValue) ?? .nearest))
        }
    }

    /// How ``Round`` rounds.
    public enum RoundingMode: String, AppEnum {
        case nearest, up, down

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Rounding"
        public static let caseDisplayRepresentations: [RoundingMode: DisplayRepresentation] = [
            .nearest: "To Nearest", .up: "Always Up", .down: "Always Down"
        ]
    }
}

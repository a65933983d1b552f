import IntentKit
import ValueFunctions

extension MathApp {
    /// A random whole number between a minimum and a maximum, both included.
    ///
    /// ```yaml
    /// - perform: Math.RandomNumber
    ///   with: { minimum: 1, maximum: 6 }
    /// ```
    public struct RandomNumber: AppIntent {
        public static let title: LocalizedStringResource = "Random Number"
        public static let description = IntentDescription("Picks a random whole number between a minimum and a maximum.")

        @Parameter(title: "Minimum", default: 0)
        public var minimum: Int

        @Parameter(title: "Maximum", default: 100)
        public var maximum: Int

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Random number between \(\.$minimum) and \(\.$maximum)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Int> {
            .result(value: try MathFunctions.random(minimum: minimum, maximum: maximum))
        }
    }
}

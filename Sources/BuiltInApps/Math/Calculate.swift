import IntentKit
import ValueFunctions

extension MathApp {
    /// Calculates with two numbers: add, subtract, multiply, divide, modulo (the remainder),
    /// power, minimum or maximum. Dividing by zero fails the step, and a literal zero divisor is
    /// reported by validation.
    ///
    /// ```yaml
    /// - perform: Math.Calculate
    ///   with: { first: 7, operation: modulo, second: 3 }   # 1
    /// ```
    public struct Calculate: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Calculate"
        public static let description = IntentDescription("Adds, subtracts, multiplies, divides or raises two numbers.")

        @Parameter(title: "First Number")
        public var first: Double

        @Parameter(title: "Operation", default: .add)
        public var operation: Operation

        @Parameter(title: "Second Number")
        public var second: Double

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("\(\.$first) \(\.$operation) \(\.$second)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Double> {
            .result(value: try MathFunctions.calculate(first, MathFunctions.Operation(rawValue: operation.rawValue) ?? .add, second))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            guard case .string(let operation)? = parameters["operation"], operation == "divide" || operation == "modulo",
                let second = parameters["second"], (try? Double(intentValue: second)) == 0
            else { return [] }
            return [ParameterProblem(parameter: "second", message: "cannot \(operation == "divide" ? "divide" : "take the remainder") by zero")]
        }
    }

    /// An operation of ``Calculate``.
    public enum Operation: String, AppEnum {
        case add, subtract, multiply, divide, modulo, power, minimum, maximum

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Operation"
        public static let caseDisplayRepresentations: [Operation: DisplayRepresentation] = [
            .add: "+", .subtract: "−", .multiply: "×", .divide: "÷", .modulo: "Modulo", .power: "Power", .minimum: "Minimum",
            .maximum: "Maximum"
        ]
    }
}

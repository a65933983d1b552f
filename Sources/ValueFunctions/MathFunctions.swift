import Foundation

/// Arithmetic on two numbers, rounding, and random numbers.
///
/// ```swift
/// try MathFunctions.calculate(7, .modulo, 3)            // 1
/// try MathFunctions.calculate(1, .divide, 0)            // throws: cannot divide 1 by zero
/// MathFunctions.round(2.345, places: 2, rule: .down)    // 2.34
/// ```
public enum MathFunctions {
    /// An operation on two numbers.
    public enum Operation: String, Sendable, CaseIterable {
        case add, subtract, multiply, divide
        /// The remainder of dividing the first number by the second, with the first's sign (`-7 modulo 3` is -1).
        case modulo
        /// The first number raised to the second.
        case power
        /// The smaller of the two.
        case minimum
        /// The larger of the two.
        case maximum
    }

    /// Applies an operation.
    ///
    /// - Throws: ``ValueFunctionError/divisionByZero(operation:)`` for `divide` or `modulo` by
    ///   zero; ``ValueFunctionError/invalidArgument(argument:reason:)`` when the result is not a
    ///   number (a negative number to a fractional power) or is infinite.
    public static func calculate(_ first: Double, _ operation: Operation, _ second: Double) throws -> Double {
        let result: Double
        switch operation {
        case .add: result = first + second
        case .subtract: result = first - second
        case .multiply: result = first * second
        case .divide:
            guard second != 0 else { throw ValueFunctionError.divisionByZero(operation: "divide \(format(first))") }
            result = first / second
        case .modulo:
            guard second != 0 else { throw ValueFunctionError.divisionByZero(operation: "take the remainder of \(format(first))") }
            result = first.truncatingRemainder(dividingBy: second)
        case .power: result = Foundation.pow(first, second)
        case .minimum: result = Swift.min(first, second)
        case .maximum: result = Swift.max(first, second)
        }
        guard result.isFinite else {
            throw ValueFunctionError.invalidArgument(
                argument: "second",
                reason: "\(format(first)) \(operation.rawValue) \(format(second)) is \(result.isNaN ? "not a number" : "too large")")
        }
        return result
    }

    /// How ``round(_:places:rule:)`` rounds.
    public enum Rule: String, Sendable, CaseIterable {
        /// To the nearest; halves away from zero (2.5 → 3, -2.5 → -3).
        case nearest
        /// Toward positive infinity (2.1 → 3).
        case up
        /// Toward negative infinity (2.9 → 2).
        case down
    }

    /// Rounds a number to a number of decimal places (negative places round to tens, hundreds…).
    ///
    /// ```swift
    /// MathFunctions.round(1234.5, places: -2)   // 1200
    /// ```
    public static func round(_ number: Double, places: Int = 0, rule: Rule = .nearest) -> Double {
        let clamped = Swift.max(-15, Swift.min(15, places))
        let scale = Foundation.pow(10, Double(clamped))
        let scaled = number * scale
        // Undo the error of the scaling (1.005 * 100 is 100.49999…) before rounding.
        let corrected = (scaled * 1e9).rounded() / 1e9
        let rounded: Double
        switch rule {
        case .nearest: rounded = corrected.rounded(.toNearestOrAwayFromZero)
        case .up: rounded = corrected.rounded(.up)
        case .down: rounded = corrected.rounded(.down)
        }
        return rounded / scale
    }

    /// A random whole number between two bounds, both included.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when `minimum` is above `maximum`.
    public static func random(minimum: Int, maximum: Int) throws -> Int {
        guard minimum <= maximum else {
            throw ValueFunctionError.invalidArgument(argument: "minimum", reason: "\(minimum) is above the maximum \(maximum)")
        }
        return Int.random(in: minimum...maximum)
    }

    /// The absolute value.
    public static func abs(_ number: Double) -> Double { Swift.abs(number) }

    static func format(_ number: Double) -> String {
        number.rounded() == number && Swift.abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

import Foundation
import IntentKit

/// Measures of a list of numbers.
///
/// ```swift
/// try StatisticsFunctions.measure(.median, of: [3, 1, 2])                // 2
/// try StatisticsFunctions.numbers(from: [.int(1), .string("2.5")])       // [1, 2.5]
/// ```
public enum StatisticsFunctions {
    /// What to measure.
    public enum Measure: String, Sendable, CaseIterable {
        /// The total; 0 for an empty list.
        case sum
        /// The arithmetic mean.
        case average
        case minimum
        case maximum
        /// The middle value, or the mean of the two middle values.
        case median
        /// The population standard deviation (divided by the count, not the count minus one).
        case standardDeviation
        /// How many numbers there are.
        case count
    }

    /// Measures a list.
    ///
    /// - Throws: ``ValueFunctionError/emptyList(argument:function:)`` for every measure but
    ///   `sum` and `count` of an empty list.
    public static func measure(_ measure: Measure, of numbers: [Double], argument: String = "numbers") throws -> Double {
        switch measure {
        case .sum: return numbers.reduce(0, +)
        case .count: return Double(numbers.count)
        default: break
        }
        guard !numbers.isEmpty else { throw ValueFunctionError.emptyList(argument: argument, function: name(of: measure)) }
        switch measure {
        case .average: return numbers.reduce(0, +) / Double(numbers.count)
        case .minimum: return numbers.min()!
        case .maximum: return numbers.max()!
        case .median:
            let sorted = numbers.sorted()
            let middle = sorted.count / 2
            return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        case .standardDeviation:
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            return (numbers.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(numbers.count)).squareRoot()
        case .sum, .count: return 0
        }
    }

    private static func name(of measure: Measure) -> String {
        measure == .standardDeviation ? "standard deviation" : measure.rawValue
    }

    /// The numbers of a list of values: numbers as they are, text read as a number.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` naming the first
    ///   element that is not a number.
    public static func numbers(from values: [IntentValue], argument: String = "numbers") throws -> [Double] {
        try values.enumerated().map { index, value in
            switch value {
            case .int(let number): return Double(number)
            case .double(let number): return number
            case .string(let text):
                if let number = Double(text.trimmingCharacters(in: .whitespaces)) { return number }
            default: break
            }
            throw ValueFunctionError.invalidArgument(
                argument: argument, reason: "element \(index) is \(value.kindName) '\(value.displayText)', not a number")
        }
    }
}

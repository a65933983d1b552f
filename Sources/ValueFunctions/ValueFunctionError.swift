import Foundation
import IntentKit

/// Why a value function could not produce its result, in words: which argument is wrong and why.
///
/// Intents throw it as they get it (it is a ``CustomLocalizedStringResourceConvertible``, so a
/// failed step shows its text), and workflow expressions say it at the expression.
///
/// ```swift
/// do { _ = try JSONFunctions.parse("{\"a\": }") } catch let error as ValueFunctionError {
///     print(error)   // invalid JSON at line 1, column 7: expected a value, found '}'
/// }
/// ```
public enum ValueFunctionError: Error, Sendable, Equatable, CustomStringConvertible, CustomLocalizedStringResourceConvertible {
    /// An argument has a value the function cannot use.
    case invalidArgument(argument: String, reason: String)
    /// A regular expression does not compile.
    case invalidRegex(argument: String, pattern: String, reason: String)
    /// Text is not JSON; the line and column (from 1) of the first mistake.
    case invalidJSON(line: Int, column: Int, reason: String)
    /// Text is not CSV; the line (from 1) of the mistake.
    case invalidCSV(line: Int, reason: String)
    /// A key path is malformed or leads nowhere.
    case invalidKeyPath(path: String, reason: String)
    /// A division or remainder by zero.
    case divisionByZero(operation: String)
    /// A function that needs at least one element got an empty list.
    case emptyList(argument: String, function: String)
    /// Text is not a date in the expected form.
    case invalidDate(text: String, expected: String)

    public var description: String {
        switch self {
        case .invalidArgument(let argument, let reason):
            "invalid '\(argument)': \(reason)"
        case .invalidRegex(let argument, let pattern, let reason):
            "invalid regular expression '\(pattern)' in '\(argument)': \(reason)"
        case .invalidJSON(let line, let column, let reason):
            "invalid JSON at line \(line), column \(column): \(reason)"
        case .invalidCSV(let line, let reason):
            "invalid CSV at line \(line): \(reason)"
        case .invalidKeyPath(let path, let reason):
            "key path '\(path)': \(reason)"
        case .divisionByZero(let operation):
            "cannot \(operation) by zero"
        case .emptyList(let argument, let function):
            "the \(function) of an empty list is undefined ('\(argument)' has no elements)"
        case .invalidDate(let text, let expected):
            "'\(text)' is not a date in the form \(expected)"
        }
    }

    public var localizedStringResource: LocalizedStringResource {
        LocalizedStringResource(description)
    }
}

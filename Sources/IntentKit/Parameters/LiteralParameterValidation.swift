import Foundation

/// An intent that checks the values a workflow writes literally for its parameters, so that
/// `shortcuts validate` reports a mistake at the value before anything runs — a regular
/// expression that does not compile, a key path that cannot be read.
///
/// The validator calls ``problems(inLiteral:)`` with every parameter whose value is written
/// in the file (not taken from a variable), by Swift name, and reports each problem at that
/// parameter's value. Values from variables are checked by `perform()` when the step runs.
///
/// ```swift
/// extension TextApp.Match: ValidatesLiteralParameters {
///     public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
///         guard case .string(let pattern)? = parameters["pattern"], let reason = RegexFunctions.problem(in: pattern) else { return [] }
///         return [ParameterProblem(parameter: "pattern", message: "invalid regular expression: \(reason)")]
///     }
/// }
/// ```
public protocol ValidatesLiteralParameters: AppIntent {
    /// The problems of the literal values given, each naming its parameter; empty when they are fine.
    ///
    /// - Parameter parameters: The literal values, by parameter name.
    static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem]
}

/// A mistake in a parameter's literal value, found before the intent runs.
public struct ParameterProblem: Sendable, Equatable {
    /// The parameter's Swift name.
    public var parameter: String
    /// What is wrong, in words.
    public var message: String
    /// How to fix it, when there is more to say.
    public var help: String?

    /// Creates a problem.
    public init(parameter: String, message: String, help: String? = nil) {
        self.parameter = parameter
        self.message = message
        self.help = help
    }
}

import IntentKit
import ValueFunctions

/// Text: split, combine, replace, match, change case and trim text.
///
/// ```yaml
/// - id: words
///   perform: Text.Split
///   with: { text: "${input.line}", by: spaces }
/// ```
public enum TextApp {
    /// The app, as the `shortcuts` binary installs it.
    public static let app = IntentApp(
        name: "Text", intents: [Split.self, Combine.self, Replace.self, Match.self, ChangeCase.self, Trim.self],
        strings: BuiltInStrings.catalog(table: "Text"))

    /// The problem of a literal regular expression, reported at its parameter.
    static func regexProblem(_ value: IntentValue?, parameter: String) -> [ParameterProblem] {
        guard case .string(let pattern)? = value, let reason = RegexFunctions.problem(in: pattern) else { return [] }
        return [
            ParameterProblem(
                parameter: parameter, message: "invalid regular expression '\(pattern)': \(reason)",
                help: "escape a special character with a backslash, such as \\( or \\.")
        ]
    }

    /// Whether a literal value says yes.
    static func isTrue(_ value: IntentValue?) -> Bool {
        guard let value else { return false }
        return (try? Bool(intentValue: value)) == true
    }
}

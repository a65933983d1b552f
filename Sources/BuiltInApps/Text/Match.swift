import IntentKit
import ValueFunctions

extension TextApp {
    /// Finds every match of a regular expression: a list of `{text, groups, named}`, the
    /// matched text, its numbered groups and its named groups.
    ///
    /// ```yaml
    /// - id: emails
    ///   perform: Text.Match
    ///   with: { text: "ann@home, bob@work", pattern: '(?<user>\w+)@(\w+)' }
    /// - show: "${emails[0].named.user}"   # ann
    /// ```
    public struct Match: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Match Text"
        public static let description = IntentDescription("Finds the matches of a regular expression in text, with their groups.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Pattern")
        public var pattern: String

        @Parameter(title: "Ignore Case", default: false)
        public var caseInsensitive: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Match \(\.$pattern) in \(\.$text)") {
                \.$caseInsensitive
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[IntentValue]> {
            .result(value: try RegexFunctions.matches(of: pattern, in: text, ignoringCase: caseInsensitive))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            TextApp.regexProblem(parameters["pattern"], parameter: "pattern")
        }
    }
}

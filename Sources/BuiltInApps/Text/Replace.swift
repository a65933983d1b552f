import IntentKit
import ValueFunctions

extension TextApp {
    /// Replaces every occurrence of text, or every match of a regular expression (with `$1`
    /// and `${name}` for its groups in the replacement), exactly or ignoring case.
    ///
    /// ```yaml
    /// - perform: Text.Replace
    ///   with: { text: "2024-05-01", find: '(\d+)-(\d+)-(\d+)', replacement: "$3/$2/$1", regex: true }
    /// ```
    public struct Replace: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Replace Text"
        public static let description = IntentDescription("Replaces text, or the matches of a regular expression, in text.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Find")
        public var find: String

        @Parameter(title: "Replacement", default: "")
        public var replacement: String

        @Parameter(title: "Regular Expression", default: false)
        public var regex: Bool

        @Parameter(title: "Ignore Case", default: false)
        public var caseInsensitive: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Replace \(\.$find) with \(\.$replacement) in \(\.$text)") {
                \.$regex
                \.$caseInsensitive
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            if regex {
                return .result(value: try RegexFunctions.replace(in: text, pattern: find, with: replacement, ignoringCase: caseInsensitive))
            }
            return .result(value: try TextFunctions.replace(text, find, with: replacement, ignoringCase: caseInsensitive))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            TextApp.isTrue(parameters["regex"]) ? TextApp.regexProblem(parameters["find"], parameter: "find") : []
        }
    }
}

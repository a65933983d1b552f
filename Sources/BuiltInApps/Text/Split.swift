import IntentKit
import ValueFunctions

extension TextApp {
    /// Splits text into a list: at line breaks, at runs of spaces, at a separator, or at the
    /// matches of a regular expression.
    ///
    /// ```yaml
    /// - perform: Text.Split
    ///   with: { text: "a1b22c", by: regex, separator: "[0-9]+" }   # [a, b, c]
    /// ```
    public struct Split: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Split Text"
        public static let description = IntentDescription("Splits text into a list at line breaks, spaces, a separator or a regular expression.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Split At", default: .newlines)
        public var by: SplitMode

        @Parameter(title: "Separator", description: "The text, or the regular expression, to split at.")
        public var separator: String?

        @Parameter(title: "Omit Empty Pieces", default: false)
        public var omitEmpty: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Split \(\.$text) at \(\.$by)") {
                \.$separator
                \.$omitEmpty
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[String]> {
            let separator: TextFunctions.Separator
            switch by {
            case .newlines: separator = self.separator.map { .text($0) } ?? .newlines
            case .spaces: separator = .spaces
            case .separator, .regex:
                guard let given = self.separator else {
                    throw ValueFunctionError.invalidArgument(
                        argument: "separator", reason: "splitting at a \(by.rawValue) needs one; add 'separator:'")
                }
                separator = by == .regex ? .regex(given) : .text(given)
            }
            return .result(value: try TextFunctions.split(text, by: separator, omittingEmpty: omitEmpty))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            guard parameters["by"] == .string(SplitMode.regex.rawValue) else { return [] }
            return TextApp.regexProblem(parameters["separator"], parameter: "separator")
        }
    }

    /// Where ``Split`` cuts text.
    public enum SplitMode: String, AppEnum {
        case newlines, spaces, separator, regex

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Split Mode"
        public static let caseDisplayRepresentations: [SplitMode: DisplayRepresentation] = [
            .newlines: "New Lines", .spaces: "Spaces", .separator: "Custom Separator", .regex: "Regular Expression"
        ]
    }
}

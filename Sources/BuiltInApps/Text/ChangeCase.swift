import IntentKit
import ValueFunctions

extension TextApp {
    /// Writes text in upper, lower, title or sentence case, or as a camel, snake or kebab case name.
    ///
    /// ```yaml
    /// - perform: Text.ChangeCase
    ///   with: { text: "where the crawdads sing", to: title }   # Where The Crawdads Sing
    /// ```
    public struct ChangeCase: AppIntent {
        public static let title: LocalizedStringResource = "Change Case"
        public static let description = IntentDescription("Writes text in another case.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Case", default: .upper)
        public var to: TextCase

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Change \(\.$text) to \(\.$to)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: TextFunctions.changeCase(text, to: to.style))
        }
    }

    /// A case ``ChangeCase`` writes text in.
    public enum TextCase: String, AppEnum {
        case upper, lower, title, sentence, camel, snake, kebab

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Text Case"
        public static let caseDisplayRepresentations: [TextCase: DisplayRepresentation] = [
            .upper: "UPPERCASE", .lower: "lowercase", .title: "Capitalize Every Word", .sentence: "Sentence case",
            .camel: "camelCase", .snake: "snake_case", .kebab: "kebab-case"
        ]

        var style: TextFunctions.Case { TextFunctions.Case(rawValue: rawValue) ?? .upper }
    }
}

import IntentKit
import ValueFunctions

extension TextApp {
    /// Removes whitespace and line breaks, or the given characters, from both ends of text.
    ///
    /// ```yaml
    /// - perform: Text.Trim
    ///   with: { text: "--hello--", characters: "-" }   # hello
    /// ```
    public struct Trim: AppIntent {
        public static let title: LocalizedStringResource = "Trim Text"
        public static let description = IntentDescription("Removes spaces and line breaks, or the given characters, from both ends of text.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Characters", description: "Each character to remove; spaces and line breaks when absent.")
        public var characters: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Trim \(\.$text)") {
                \.$characters
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: TextFunctions.trim(text, characters: characters))
        }
    }
}

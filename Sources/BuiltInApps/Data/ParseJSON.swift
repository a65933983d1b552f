import IntentKit
import ValueFunctions

extension DataApp {
    /// Reads JSON text: objects become dictionaries, arrays lists, whole numbers `Int`.
    /// Text that is not JSON fails the step with the line and column of the mistake.
    ///
    /// ```yaml
    /// - id: release
    ///   perform: Data.ParseJSON
    ///   with: { text: '{"name": "1.0", "assets": [{"name": "app.tar.gz"}]}' }
    /// ```
    public struct ParseJSON: AppIntent {
        public static let title: LocalizedStringResource = "Parse JSON"
        public static let description = IntentDescription("Reads JSON text into dictionaries, lists and values.")

        @Parameter(title: "Text")
        public var text: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Parse \(\.$text) as JSON")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            .result(value: try JSONFunctions.parse(text))
        }
    }
}

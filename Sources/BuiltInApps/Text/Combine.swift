import IntentKit
import ValueFunctions

extension TextApp {
    /// Combines a list into one text, its elements joined by a separator.
    ///
    /// ```yaml
    /// - perform: Text.Combine
    ///   with: { list: "${titles}", separator: ", " }
    /// ```
    public struct Combine: AppIntent {
        public static let title: LocalizedStringResource = "Combine Text"
        public static let description = IntentDescription("Joins the elements of a list into one text with a separator.")

        @Parameter(title: "List")
        public var list: [IntentValue]

        @Parameter(title: "Separator", description: "Written between elements; a line break by default.", default: "\n")
        public var separator: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Combine \(\.$list) with \(\.$separator)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: TextFunctions.join(list, separator: separator))
        }
    }
}

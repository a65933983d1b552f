import IntentKit
import ValueFunctions

extension ListsApp {
    /// Removes repeated items from a list, keeping the first of each; items are compared
    /// whole, or by the value at a key path.
    ///
    /// ```yaml
    /// - perform: Lists.Unique
    ///   with: { list: "${books}", by: author }   # one book per author
    /// ```
    public struct Unique: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Remove Duplicates"
        public static let description = IntentDescription("Removes repeated items from a list, keeping the first of each.")

        @Parameter(title: "List")
        public var list: [IntentValue]

        @Parameter(title: "Compare By", description: "The key path of the value that makes items the same.")
        public var by: String?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Remove duplicates from \(\.$list)") {
                \.$by
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[IntentValue]> {
            .result(value: try ListFunctions.unique(list, by: by))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            ListsApp.keyPathProblem(parameters["by"])
        }
    }
}

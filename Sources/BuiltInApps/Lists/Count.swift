import IntentKit
import ValueFunctions

extension ListsApp {
    /// Counts a list's items by the value at a key path (or by themselves): a list of
    /// `{key, count}`, the most frequent first, ties by key; at most `limit` of them. An item
    /// whose key is a list (tags) counts under each of its elements.
    ///
    /// ```yaml
    /// - id: top
    ///   perform: Lists.Count
    ///   with: { list: "${books}", by: author, limit: 3 }
    /// - show: "${top[0].key} wrote ${top[0].count}"
    /// ```
    public struct Count: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Count Items"
        public static let description = IntentDescription("Counts the items of a list by a key, the most frequent first.")

        @Parameter(title: "List")
        public var list: [IntentValue]

        @Parameter(title: "Count By", description: "The key path of the value to count by.")
        public var by: String?

        @Parameter(title: "Limit")
        public var limit: Int?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Count \(\.$list) by \(\.$by)") {
                \.$limit
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[IntentValue]> {
            let counts = try ListFunctions.countBy(list, key: by)
            if let limit {
                guard limit >= 0 else { throw ValueFunctionError.invalidArgument(argument: "limit", reason: "\(limit) is negative") }
                return .result(value: Array(counts.prefix(limit)))
            }
            return .result(value: counts)
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            ListsApp.keyPathProblem(parameters["by"])
        }
    }
}

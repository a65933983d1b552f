import IntentKit
import ValueFunctions

extension ListsApp {
    /// Sorts a list: values themselves, or dictionaries and entities by the value at a key
    /// path (`by: author` or `by: publisher.name`). Numbers sort by value, dates in time, text
    /// ignoring case; items without the key go last; equal items keep their order.
    ///
    /// ```yaml
    /// - perform: Lists.Sort
    ///   with: { list: "${books}", by: datePublished, order: descending }
    /// ```
    public struct Sort: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Sort List"
        public static let description = IntentDescription("Sorts a list, or its dictionaries and entities by a key.")

        @Parameter(title: "List")
        public var list: [IntentValue]

        @Parameter(title: "Sort By", description: "The key path of the value to sort dictionaries and entities by.")
        public var by: String?

        @Parameter(title: "Order", default: .ascending)
        public var order: SortDirection

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Sort \(\.$list) by \(\.$by)") {
                \.$order
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[IntentValue]> {
            .result(value: try ListFunctions.sort(list, by: by, descending: order == .descending))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            ListsApp.keyPathProblem(parameters["by"])
        }
    }

    /// The order of ``Sort``.
    public enum SortDirection: String, AppEnum {
        case ascending, descending

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
        public static let caseDisplayRepresentations: [SortDirection: DisplayRepresentation] = [
            .ascending: "Ascending", .descending: "Descending"
        ]
    }
}

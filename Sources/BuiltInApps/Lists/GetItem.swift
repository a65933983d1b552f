import IntentKit
import ValueFunctions

extension ListsApp {
    /// Gets the first, last or a random item of a list, the item at a position (from 0;
    /// negative from the end), or the items of a range from `index` up to, not including, `end`.
    ///
    /// ```yaml
    /// - perform: Lists.GetItem
    ///   with: { list: "${books}", position: range, index: 0, end: 3 }   # the first three
    /// ```
    public struct GetItem: AppIntent {
        public static let title: LocalizedStringResource = "Get Item from List"
        public static let description = IntentDescription("Gets the first, last or a random item, the item at a position, or a range of items.")

        @Parameter(title: "List")
        public var list: [IntentValue]

        @Parameter(title: "Get", default: .first)
        public var position: ItemPosition

        @Parameter(title: "Index", description: "The position, or the start of the range; negative counts from the end.")
        public var index: Int?

        @Parameter(title: "End Index", description: "The end of the range, not included; the end of the list when absent.")
        public var end: Int?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Get \(\.$position) from \(\.$list)") {
                \.$index
                \.$end
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            switch position {
            case .first: return .result(value: try ListFunctions.first(list))
            case .last: return .result(value: try ListFunctions.last(list))
            case .random: return .result(value: try ListFunctions.random(list))
            case .index:
                guard let index else {
                    throw ValueFunctionError.invalidArgument(argument: "index", reason: "getting the item at an index needs one; add 'index:'")
                }
                return .result(value: try ListFunctions.item(index, of: list))
            case .range: return .result(value: IntentValue.list(ListFunctions.slice(list, from: index ?? 0, to: end)))
            }
        }
    }

    /// What ``GetItem`` gets.
    public enum ItemPosition: String, AppEnum {
        case first, last, random, index, range

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Item Position"
        public static let caseDisplayRepresentations: [ItemPosition: DisplayRepresentation] = [
            .first: "First Item", .last: "Last Item", .random: "Random Item", .index: "Item at Index", .range: "Items in Range"
        ]
    }
}

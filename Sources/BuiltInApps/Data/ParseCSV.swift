import IntentKit
import ValueFunctions

extension DataApp {
    /// Reads CSV text (RFC 4180: quoted fields with delimiters, line breaks and doubled
    /// quotes) into a list of dictionaries keyed by the header row, or, with `header: false`,
    /// a list of lists. A malformed record fails the step with its line.
    ///
    /// ```yaml
    /// - id: rows
    ///   perform: Data.ParseCSV
    ///   with: { text: "${file}", delimiter: ";" }
    /// ```
    public struct ParseCSV: AppIntent {
        public static let title: LocalizedStringResource = "Parse CSV"
        public static let description = IntentDescription("Reads CSV text into a list of rows.")

        @Parameter(title: "Text")
        public var text: String

        @Parameter(title: "Header Row", description: "Whether the first record names the columns.", default: true)
        public var header: Bool

        @Parameter(title: "Delimiter", default: ",")
        public var delimiter: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Parse \(\.$text) as CSV") {
                \.$header
                \.$delimiter
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[IntentValue]> {
            let delimiter = try DataApp.delimiter(delimiter)
            if header { return .result(value: try CSVFunctions.parse(text, delimiter: delimiter)) }
            let records = try CSVFunctions.records(text, delimiter: delimiter)
            return .result(value: records.map { IntentValue.list($0.fields.map(IntentValue.string)) })
        }
    }
}

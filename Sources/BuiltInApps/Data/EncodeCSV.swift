import IntentKit
import ValueFunctions

extension DataApp {
    /// Writes rows as CSV text with a header row: dictionaries or entities under their keys
    /// (every key, sorted, unless `columns` orders them), or lists as they are. Fields with
    /// the delimiter, quotes or line breaks are quoted.
    ///
    /// ```yaml
    /// - perform: Data.EncodeCSV
    ///   with: { rows: "${books}", columns: [title, author, datePublished] }
    /// ```
    public struct EncodeCSV: AppIntent {
        public static let title: LocalizedStringResource = "Encode CSV"
        public static let description = IntentDescription("Writes a list of rows as CSV text.")

        @Parameter(title: "Rows")
        public var rows: [IntentValue]

        @Parameter(title: "Columns")
        public var columns: [String]?

        @Parameter(title: "Delimiter", default: ",")
        public var delimiter: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Encode \(\.$rows) as CSV") {
                \.$columns
                \.$delimiter
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: try CSVFunctions.encode(rows, columns: columns, delimiter: try DataApp.delimiter(delimiter)))
        }
    }
}

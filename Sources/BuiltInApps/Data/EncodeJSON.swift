import IntentKit
import ValueFunctions

extension DataApp {
    /// Writes a value as JSON text with sorted keys, pretty (indented) or compact (one line).
    ///
    /// ```yaml
    /// - perform: Data.EncodeJSON
    ///   with: { value: "${books}", style: compact }
    /// ```
    public struct EncodeJSON: AppIntent {
        public static let title: LocalizedStringResource = "Encode JSON"
        public static let description = IntentDescription("Writes a value as JSON text.")

        @Parameter(title: "Value")
        public var value: IntentValue

        @Parameter(title: "Style", default: .pretty)
        public var style: JSONStyle

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Encode \(\.$value) as \(\.$style) JSON")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: JSONFunctions.encode(value, pretty: style == .pretty))
        }
    }

    /// How ``EncodeJSON`` lays out JSON.
    public enum JSONStyle: String, AppEnum {
        case pretty, compact

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "JSON Style"
        public static let caseDisplayRepresentations: [JSONStyle: DisplayRepresentation] = [.pretty: "Pretty", .compact: "Compact"]
    }
}

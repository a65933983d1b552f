import IntentKit
import ValueFunctions

extension DataApp {
    /// Reads the value at a key path in dictionaries, lists and entities: keys with dots,
    /// positions in brackets, negative positions from the end (`books[-1].title`). A missing
    /// key fails the step naming the keys there are, unless `defaultValue` is given.
    ///
    /// ```yaml
    /// - perform: Data.GetValue
    ///   with: { value: "${release}", path: "assets[0].name" }
    /// ```
    public struct GetValue: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Get Value"
        public static let description = IntentDescription("Reads the value at a key path such as a.b[0].c.")

        @Parameter(title: "Value")
        public var value: IntentValue

        @Parameter(title: "Key Path")
        public var path: String

        @Parameter(title: "Default Value", description: "Returned when the key path leads nowhere.")
        public var defaultValue: IntentValue?

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Get \(\.$path) in \(\.$value)") {
                \.$defaultValue
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            let keyPath = try ValueKeyPath(path)
            do {
                return .result(value: try keyPath.value(in: value))
            } catch let error as ValueFunctionError {
                guard let defaultValue, !defaultValue.isNull else { throw error }
                return .result(value: defaultValue)
            }
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DataApp.keyPathProblem(parameters["path"])
        }
    }
}

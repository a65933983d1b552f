import IntentKit
import ValueFunctions

extension DataApp {
    /// Returns a copy of a value with the value at a key path replaced: missing keys are
    /// added (with dictionaries made on the way), `[n]` just past a list's end appends.
    ///
    /// ```yaml
    /// - perform: Data.SetValue
    ///   with: { value: "${settings}", path: "window.size[0]", newValue: 800 }
    /// ```
    public struct SetValue: AppIntent, ValidatesLiteralParameters {
        public static let title: LocalizedStringResource = "Set Value"
        public static let description = IntentDescription("Returns a value with the value at a key path replaced.")

        @Parameter(title: "Value")
        public var value: IntentValue

        @Parameter(title: "Key Path")
        public var path: String

        @Parameter(title: "New Value")
        public var newValue: IntentValue

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Set \(\.$path) in \(\.$value) to \(\.$newValue)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            .result(value: try ValueKeyPath(path).setting(newValue, in: value))
        }

        public static func problems(inLiteral parameters: [String: IntentValue]) -> [ParameterProblem] {
            DataApp.keyPathProblem(parameters["path"])
        }
    }
}

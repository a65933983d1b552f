import IntentKit
import ValueFunctions

/// Data: JSON and CSV to values and back, and values at a key path such as `a.b[0].c`.
///
/// ```yaml
/// - id: release
///   perform: Data.ParseJSON
///   with: { text: "${body}" }
/// - perform: Data.GetValue
///   with: { value: "${release}", path: "assets[0].name" }
/// ```
public enum DataApp {
    /// The app, as the `shortcuts` binary installs it.
    public static let app = IntentApp(
        name: "Data", intents: [ParseJSON.self, EncodeJSON.self, GetValue.self, SetValue.self, ParseCSV.self, EncodeCSV.self],
        strings: BuiltInStrings.catalog(table: "Data"))

    /// The problem of a literal key path, reported at its parameter.
    static func keyPathProblem(_ value: IntentValue?) -> [ParameterProblem] {
        guard case .string(let path)? = value else { return [] }
        do {
            _ = try ValueKeyPath(path)
            return []
        } catch {
            return [
                ParameterProblem(
                    parameter: "path", message: "invalid \(error)", help: "write keys with dots and positions in brackets, such as books[0].title")
            ]
        }
    }

    /// A one-character delimiter.
    static func delimiter(_ text: String) throws -> Character {
        guard text.count == 1, let character = text.first else {
            throw ValueFunctionError.invalidArgument(
                argument: "delimiter", reason: "'\(text)' is not one character; write one such as , or ; or a tab")
        }
        return character
    }
}

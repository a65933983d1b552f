import IntentKit
import ValueFunctions

/// Lists: items by position, sorting, unique elements and counts by key.
///
/// ```yaml
/// - perform: Lists.Count
///   with: { list: "${books}", by: author, limit: 3 }   # the top three authors
/// ```
public enum ListsApp {
    /// The app, as the `shortcuts` binary installs it.
    public static let app = IntentApp(
        name: "Lists", intents: [GetItem.self, Sort.self, Unique.self, Count.self], strings: BuiltInStrings.catalog(table: "Lists"))

    /// The problem of a literal key path in `by`, reported at it.
    static func keyPathProblem(_ value: IntentValue?) -> [ParameterProblem] {
        guard case .string(let path)? = value, !path.isEmpty else { return [] }
        do {
            _ = try ValueKeyPath(path)
            return []
        } catch {
            return [ParameterProblem(parameter: "by", message: "invalid \(error)", help: "write keys with dots, such as author or author.name")]
        }
    }
}

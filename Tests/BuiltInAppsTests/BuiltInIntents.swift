import BuiltInApps
import IntentKit
import WorkflowKit

/// Performs built-in intents as a workflow step does (by name, values coerced to each
/// parameter's type), and validates workflow text against the built-in apps.
enum BuiltInIntents {
    static let catalog = IntentCatalog(apps: BuiltInApps.all)

    /// The value an intent returns.
    static func perform(_ name: String, _ arguments: [String: IntentValue]) async throws -> IntentValue {
        try await IntentPerformer(catalog: catalog).perform(name, arguments: arguments).value ?? .null
    }

    /// The message of the error an intent fails with, or `nil` when it succeeds.
    static func failure(_ name: String, _ arguments: [String: IntentValue]) async -> String? {
        do {
            _ = try await perform(name, arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The diagnostics of a workflow as `line:column: message`.
    static func diagnostics(of yaml: String) throws -> [String] {
        let workflow = try WorkflowLoader.load(text: yaml, fileName: "test.yaml")
        return WorkflowValidator(catalog: catalog).validate(workflow).map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }
}

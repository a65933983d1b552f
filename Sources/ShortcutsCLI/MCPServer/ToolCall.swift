import Foundation
import IntentKit
import MCP
import MCPServerApps
import Synchronization
import WorkflowKit

/// Runs a tool call: an intent through ``IntentPerformer`` (as `shortcuts perform` does, the
/// intents its result opens included), a workflow through ``WorkflowRunner`` (as `shortcuts run`
/// does, validated first — a question it cannot ask is then an error before any step runs — and
/// recorded in the run history with the trigger `mcp`).
///
/// The result's `structuredContent` is the returned value's JSON (an entity's object as it is,
/// any other value wrapped as `{"value": …}`); its text content is the dialogs and snippets (a
/// workflow's shown text), then the value's JSON text, for clients that read only text. A
/// failure is a result with `isError: true` and the error's message.
///
/// ```swift
/// let call = ToolCall(catalog: catalog, locale: "en", interaction: interaction, canAsk: true)
/// let result = await call.run(tool, arguments: ["title": "Emma"])
/// ```
struct ToolCall: Sendable {
    /// The installed apps.
    var catalog: IntentCatalog
    /// The language of dialogs.
    var locale: String
    /// Who answers questions.
    var interaction: any Interaction
    /// Whether questions can be asked (a workflow's unanswerable `ask` then fails validation).
    var canAsk: Bool

    /// Runs the tool.
    ///
    /// - Parameters:
    ///   - tool: The tool.
    ///   - arguments: The call's arguments; `null` ones count as not given.
    /// - Returns: The result, or the failure as a tool error.
    func run(_ tool: ServedTool, arguments: [String: Value]) async -> CallTool.Result {
        let values = arguments.filter { !$0.value.isNull }.mapValues(\.intentValue)
        do {
            switch tool.target {
            case .intent(let name): return try await perform(name, arguments: values)
            case .workflow(let url): return try await runWorkflow(at: url, inputs: values)
            }
        } catch {
            return CallTool.Result(content: [.text(text: Self.message(for: error), annotations: nil, _meta: nil)], isError: true)
        }
    }

    private func perform(_ name: String, arguments: [String: IntentValue]) async throws -> CallTool.Result {
        let performer = IntentPerformer(catalog: catalog, interaction: interaction, locale: locale, runsOpenedIntents: true)
        let outcome = try await performer.perform(name, arguments: arguments)
        var texts: [String] = []
        func collect(_ outcome: PerformOutcome) {
            texts += [outcome.dialog, outcome.snippet].compactMap { $0 }
            outcome.opened.forEach(collect)
        }
        collect(outcome)
        return Self.result(outcome.value ?? .null, texts: texts)
    }

    private func runWorkflow(at url: URL, inputs: [String: IntentValue]) async throws -> CallTool.Result {
        let workflow = try WorkflowLoader.load(contentsOf: url)
        let validator = WorkflowValidator(catalog: catalog, isHeadless: !canAsk, secrets: SecretStore.standard())
        let (diagnostics, sources) = validator.check(workflow)
        if !diagnostics.isEmpty { throw DiagnosticError(diagnostics, sources: sources) }
        let shown = Mutex<[String]>([])
        let runner = WorkflowRunner(
            catalog: catalog, interaction: interaction, locale: locale, history: try StateStores.history(.environment), trigger: "mcp",
            show: { text in shown.withLock { $0.append(text) } })
        let result = try await runner.run(workflow, inputs: inputs)
        return Self.result(result.output, texts: shown.withLock { $0 })
    }

    private static func result(_ value: IntentValue, texts: [String]) -> CallTool.Result {
        let json = value.mcpValue
        let structured: Value = json.objectValue != nil ? json : ["value": json]
        var content = texts.map { Tool.Content.text(text: $0, annotations: nil, _meta: nil) }
        if !value.isNull { content.append(.text(text: value.jsonText, annotations: nil, _meta: nil)) }
        return CallTool.Result(content: content, structuredContent: Optional(structured), isError: false)
    }

    /// An error's message, as the command line words it but without its command-line hints.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as CommandLineError: error.rendered ?? error.message
        case is CancellationError: "cancelled"
        default: String(describing: error)
        }
    }
}

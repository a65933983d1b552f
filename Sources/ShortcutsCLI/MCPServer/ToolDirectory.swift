import Foundation
import IntentKit
import MCP
import WorkflowKit

/// One tool of `shortcuts mcp`: what clients see, and what a call runs.
struct ServedTool: Sendable {
    /// What a call runs.
    enum Target: Sendable {
        /// An intent, by its full name (`Library.AddBook`).
        case intent(String)
        /// A workflow file.
        case workflow(URL)
    }

    /// The tool as `tools/list` gives it.
    var tool: Tool
    /// What a call runs.
    var target: Target
}

/// The tools `shortcuts mcp` exposes: every installed intent (built-in, apps, extensions: all
/// that the catalog holds) and every workflow of a folder, less what ``ToolFilter`` hides.
///
/// ```swift
/// let directory = ToolDirectory(catalog: catalog, workflowsFolder: URL(fileURLWithPath: "Workflows"), filter: filter)
/// directory.tools.map(\.tool.name)   // ["Library_AddBook", …, "workflow_add-and-open"]
/// ```
struct ToolDirectory: Sendable {
    /// The exposed tools, intents first, each group sorted by name.
    private(set) var tools: [ServedTool] = []

    /// Describes the tools.
    ///
    /// Titles and descriptions are in the current ``Localization``. A workflow file that does
    /// not load is left out and reported to `warn`.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - workflowsFolder: The folder whose workflows are tools; none when `nil` or missing.
    ///   - filter: What `--allow` and `--deny` choose.
    ///   - warn: Receives what was left out and why.
    init(catalog: IntentCatalog, workflowsFolder: URL?, filter: ToolFilter, warn: (String) -> Void = { _ in }) {
        let metadata = AppMetadata(catalog: catalog)
        let schemas = InputSchema(metadata: metadata)
        var taken: Set<String> = []
        for app in metadata.apps {
            for intent in app.intents {
                let name = ToolName.intent(intent.name)
                guard filter.exposes(name, app: app.name) else { continue }
                guard taken.insert(name).inserted else {
                    warn("\(intent.name) is not served: another tool is already named \(name)")
                    continue
                }
                tools.append(ServedTool(tool: Self.tool(for: intent, named: name, app: app.name, schemas: schemas), target: .intent(intent.name)))
            }
        }
        guard let workflowsFolder else { return }
        for url in WorkflowFiles.all(in: workflowsFolder) {
            let name = ToolName.workflow(url.deletingPathExtension().lastPathComponent)
            guard filter.exposes(name, app: nil) else { continue }
            let workflow: Workflow
            do {
                workflow = try WorkflowLoader.load(contentsOf: url)
            } catch {
                let command = Installation.shared.commandName
                warn("\(url.relativePath) is not served: it does not load (`\(command) validate \(url.relativePath)` says why)")
                continue
            }
            guard taken.insert(name).inserted else {
                warn("\(url.relativePath) is not served: another tool is already named \(name)")
                continue
            }
            tools.append(ServedTool(tool: Self.tool(for: workflow, at: url, named: name, schemas: schemas), target: .workflow(url)))
        }
    }

    /// The tool with a name, if it is exposed.
    func tool(named name: String) -> ServedTool? {
        tools.first { $0.tool.name == name }
    }

    private static func tool(for intent: AppMetadata.Intent, named name: String, app: String, schemas: InputSchema) -> Tool {
        let properties = intent.parameters.map { parameter -> (name: String, schema: Value, isRequired: Bool) in
            var schema = schemas.schema(forType: parameter.type, in: app)
            schema["title"] = .string(parameter.title)
            if let text = parameter.defaultValue, let defaultValue = schemas.defaultValue(text, forType: parameter.type, in: app) {
                schema["default"] = defaultValue
            }
            return (parameter.name, .object(schema), parameter.isRequired)
        }
        let description = intent.description ?? (intent.summary.isEmpty ? intent.title : Self.readable(intent.summary))
        return Tool(name: name, title: intent.title, description: description, inputSchema: InputSchema.object(properties))
    }

    private static func tool(for workflow: Workflow, at url: URL, named name: String, schemas: InputSchema) -> Tool {
        let properties = workflow.inputs.map { input -> (name: String, schema: Value, isRequired: Bool) in
            var schema = schemas.schema(forType: input.type.value)
            var notes = [input.description, schema["description"]?.stringValue].compactMap { $0 }
            if case .literal(let literal) = input.defaultValue { notes.append("Default: \(literal.text).") }
            if !notes.isEmpty { schema["description"] = .string(notes.joined(separator: " ")) }
            return (input.name.value, .object(schema), input.isRequired)
        }
        let title = workflow.name?.value ?? url.deletingPathExtension().lastPathComponent
        let description = workflow.description?.value ?? "Runs the workflow \(url.lastPathComponent)."
        return Tool(name: name, title: title, description: description, inputSchema: InputSchema.object(properties))
    }

    /// A parameter summary as a sentence: `Encode ${rows} as CSV` reads `Encode rows as CSV`.
    private static func readable(_ summary: String) -> String {
        summary.replacingOccurrences(of: #"\$\{([^}]*)\}"#, with: "$1", options: .regularExpression)
    }
}

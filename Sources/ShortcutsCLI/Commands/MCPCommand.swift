import ArgumentParser
import Foundation

struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the installed intents and a folder's workflows as MCP tools over standard input and output.",
        discussion: """
            A Model Context Protocol server for assistants: each intent is a tool named App_Intent (Library_AddBook), \
            each workflow of the folder a tool named workflow_NAME (the file's name without .yaml). Inputs follow the \
            parameters' types (enums as their raw values, entities by identifier or title) or the workflow's input:. \
            Questions become elicitations when the client supports them; otherwise the call fails quoting the question. \
            Standard output carries only the protocol; logs go to standard error.
            --allow and --deny take glob patterns over tool names (* any text, ? one character); --deny wins. With --allow, \
            only matching tools are served. The built-in Shell, Files, Web and Clipboard actions are served only when an \
            --allow pattern names their app before any wildcard (Shell_*, Files_ReadFile; not * or Sh*).
            Example: shortcuts mcp --workflows ~/Workflows --allow 'Library_*' --allow 'workflow_*'
            """)

    @Option(
        name: .long, help: ArgumentHelp("The folder whose workflows are served (default ./Workflows).", valueName: "folder"),
        completion: .directory)
    var workflows: String?

    @Option(name: .long, help: ArgumentHelp("Serve only the tools this glob pattern matches (repeatable).", valueName: "pattern"))
    var allow: [String] = []

    @Option(name: .long, help: ArgumentHelp("Never serve the tools this glob pattern matches (repeatable; wins over --allow).", valueName: "pattern"))
    var deny: [String] = []

    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        let folder = try workflowsFolder()
        let server = ToolServer(
            catalog: Installation.shared.catalog, locale: locale.resolvedLocale, workflowsFolder: folder,
            filter: ToolFilter(allow: allow, deny: deny))
        try await server.serve()
    }

    /// The folder of `--workflows`, which must exist; else `./Workflows` when there is one.
    private func workflowsFolder() throws -> URL? {
        guard let workflows else { return WorkflowFiles.folderExists ? URL(fileURLWithPath: WorkflowFiles.folderName) : nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workflows, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandLineError(
                FileProblem(role: "--workflows", path: workflows, reason: "it is not a folder", hint: "give the folder that holds the workflow files")
            )
        }
        return URL(fileURLWithPath: workflows)
    }
}

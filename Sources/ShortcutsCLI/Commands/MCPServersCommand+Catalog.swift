import ArgumentParser
import Foundation
import IntentKit
import MCPServerApps
import WorkflowKit

extension MCPServersCommand {
    /// Adds the configured MCP servers' apps to the installed catalog, before a command that
    /// may use them runs (every command but those of `mcp-servers`, which read the servers themselves).
    ///
    /// The apps come from the cached tool lists; a server not cached yet is started once to read
    /// them. A server that cannot be used is a warning on standard error, never a failure.
    ///
    /// - Parameters:
    ///   - command: The parsed command.
    ///   - apps: The apps installed already: the tool's own and the extensions'.
    static func installServers(for command: any ParsableCommand, besides apps: [IntentApp]) async {
        if command is List || command is Add || command is Remove || command is Check || command is Refresh { return }
        let loaded: (apps: [MCPServerApps.App], warnings: [String])
        do {
            loaded = try await MCPServerApps.load()
        } catch {
            warn(about: error)
            return
        }
        for warning in loaded.warnings { CommandOutput.current.writeError(Data("warning: \(warning)\n".utf8)) }
        guard !loaded.apps.isEmpty else { return }
        let installation = Installation.shared
        installation.install(
            catalog: IntentCatalog(apps: apps + loaded.apps.map { IntentApp(hosted: $0.metadata, host: $0.host) }),
            commandName: installation.commandName, version: installation.version, arguments: installation.arguments)
    }

    /// Says on standard error why no server is used: a malformed `mcp.json` drawn at its line.
    private static func warn(about error: any Error) {
        let text: String
        if let error = error as? MCPConfigurationError {
            var diagnostic = located(error).diagnostics[0]
            diagnostic.severity = .warning
            diagnostic.message += " (no MCP server is used)"
            text = DiagnosticRenderer(sources: located(error).sources).render(diagnostic)
        } else {
            text = "warning: \(CommandLineError(error).message) (no MCP server is used)"
        }
        CommandOutput.current.writeError(Data((text + "\n").utf8))
    }
}

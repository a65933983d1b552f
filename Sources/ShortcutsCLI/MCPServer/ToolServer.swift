import Foundation
import IntentKit
import Logging
import MCP

/// The MCP server of `shortcuts mcp`: tools listed by ``ToolDirectory``, called through
/// ``ToolCall``, questions asked through ``ElicitingInteraction``, over standard input and
/// output (``ProtocolChannel``, ``ChannelTransport``) until the client closes standard input.
///
/// The tools are described again for each `tools/list` and `tools/call`, so a workflow added
/// to the folder is served without a restart.
///
/// ```swift
/// try await ToolServer(catalog: catalog, locale: "en", workflowsFolder: nil, filter: ToolFilter(allow: [], deny: [])).serve()
/// ```
struct ToolServer: Sendable {
    /// The installed apps.
    var catalog: IntentCatalog
    /// The language of titles, descriptions and dialogs.
    var locale: String
    /// The folder whose workflows are tools.
    var workflowsFolder: URL?
    /// What `--allow` and `--deny` choose.
    var filter: ToolFilter

    /// Serves until standard input ends.
    ///
    /// - Throws: ``CommandLineError`` when the streams cannot be set up.
    func serve() async throws {
        try await serve(on: ProtocolChannel.claimStandardStreams())
    }

    /// Serves over a channel until its input ends and every request read is answered.
    ///
    /// Lines that are not requests the handlers can read are answered before them, by JSON-RPC
    /// 2.0's rules (``IncomingMessage``); a line is at most 4 MiB (``ChannelTransport/messageLimit``).
    ///
    /// - Parameter channel: The descriptors to read and write, which stay open.
    func serve(on channel: ProtocolChannel) async throws {
        let logger = Self.logger()
        let abilities = ClientAbilities()
        let server = Server(
            name: Installation.shared.commandName, version: ToolVersion.number,
            instructions: "Each tool runs an installed intent (App_Intent) or a workflow (workflow_NAME). Questions are asked as elicitations.",
            capabilities: .init(tools: .init(listChanged: false)))
        let call = ToolCall(
            catalog: catalog, locale: locale, interaction: ElicitingInteraction(server: server, client: abilities), canAsk: false)
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: directory(warn: { logger.warning("\($0)") }).tools.map(\.tool))
        }
        await server.withMethodHandler(CallTool.self) { parameters in
            guard let tool = directory().tool(named: parameters.name) else {
                throw MCPError.invalidParams("Unknown tool: \(parameters.name)")
            }
            var call = call
            call.canAsk = abilities.supportsElicitation
            return await Localization.$current.withValue(localization) {
                await call.run(tool, arguments: parameters.arguments ?? [:])
            }
        }
        // The SDK's server answers initialize and ping itself; the handlers above answer the rest.
        let methods = ServedMethods([Initialize.self, Ping.self, ListTools.self, CallTool.self])
        let transport = ChannelTransport(channel: channel, methods: methods, logger: logger)
        try await server.start(transport: transport) { _, capabilities in abilities.learn(capabilities) }
        await server.waitUntilCompleted()
    }

    /// Warnings and errors, on standard error.
    private static func logger() -> Logger {
        var logger = Logger(label: Installation.shared.commandName + ".mcp") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }

    private var localization: Localization {
        Localization(locale: locale, strings: catalog.mergedStrings)
    }

    private func directory(warn: (String) -> Void = { _ in }) -> ToolDirectory {
        Localization.$current.withValue(localization) {
            ToolDirectory(catalog: catalog, workflowsFolder: workflowsFolder, filter: filter, warn: warn)
        }
    }
}

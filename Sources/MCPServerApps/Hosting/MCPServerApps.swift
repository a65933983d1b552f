import Clockwork
import Foundation
import IntentKit
import MCP

/// The apps of the MCP servers configured in `$SHORTCUTS_HOME/mcp.json`, made from their
/// cached tool lists, each with the host that calls its tools.
///
/// A server whose tools are not cached yet (or were cached for another configuration) is
/// started once to read them; the connection is kept for its first call. A server that cannot
/// be read is left out with a warning: it never stops the engine.
///
/// ```swift
/// let loaded = try await MCPServerApps.load()
/// for warning in loaded.warnings { print("warning: " + warning) }
/// let apps = loaded.apps.map { IntentApp(hosted: $0.metadata, host: $0.host) }
/// ```
package enum MCPServerApps {
    /// One server's app.
    package struct App: Sendable {
        /// The app's metadata (`mcp.NAME`, one intent per tool).
        package var metadata: AppMetadata.App
        /// The host that calls the tools.
        package var host: MCPServerHost
    }

    /// The configured servers' apps, and a warning for each server left out.
    ///
    /// - Parameters:
    ///   - environment: The environment that names the data folder and that servers start in.
    ///   - fetchTimeout: How long a server whose tools are not cached has to answer.
    ///   - clock: The clock the servers' timeouts are measured by and the cache is dated by.
    /// - Returns: The apps, in the configuration's order, and the warnings.
    /// - Throws: ``MCPConfigurationError`` for a malformed `mcp.json`, or the file system's error
    ///   when it cannot be read.
    package static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment, fetchTimeout: Duration = .seconds(30),
        clock: any EngineClock = .system
    ) async throws -> (apps: [App], warnings: [String]) {
        let servers = try MCPServerList.load(environment: environment).servers
        let cache = MCPToolCache(environment: environment, clock: clock)
        // Servers whose tools are not cached are read at the same time.
        let loaded = await withTaskGroup(of: (Int, Result<App, any Error>).self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask {
                    if let entry = cache.entry(for: server) {
                        return (
                            index, .success(app(server: server, tools: entry.tools, connection: nil, environment: environment, clock: clock))
                        )
                    }
                    do {
                        let (tools, connection) = try await fetch(
                            server, into: cache, environment: environment, timeout: fetchTimeout, clock: clock)
                        return (
                            index, .success(app(server: server, tools: tools, connection: connection, environment: environment, clock: clock))
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results: [(Int, Result<App, any Error>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        var apps: [App] = []
        var warnings: [String] = []
        for (index, result) in loaded {
            switch result {
            case .success(let app): apps.append(app)
            case .failure(let error as MCPServerConnectionError): warnings.append("\(error); its tools are left out")
            case .failure(let error): warnings.append("MCP server '\(servers[index].name)': \(error); its tools are left out")
            }
        }
        return (apps, warnings)
    }

    /// Starts a server, reads its tools and caches them.
    ///
    /// - Returns: The tools and the open connection.
    /// - Throws: ``MCPServerConnectionError``, or the file system's error when the cache cannot be written.
    package static func fetch(
        _ server: MCPServerConfiguration, into cache: MCPToolCache, environment: [String: String],
        timeout: Duration = MCPServerConnection.startTimeout, clock: any EngineClock = .system
    ) async throws -> ([Tool], MCPServerConnection) {
        let connection = try await MCPServerConnection.start(server, environment: environment, timeout: timeout, clock: clock)
        do {
            let tools = try await connection.tools()
            try cache.store(tools, for: server)
            return (tools, connection)
        } catch {
            await connection.stop()
            throw error
        }
    }

    private static func app(
        server: MCPServerConfiguration, tools: [Tool], connection: MCPServerConnection?, environment: [String: String],
        clock: any EngineClock
    ) -> App {
        App(
            metadata: MCPToolMetadata.app(for: server, tools: tools),
            host: MCPServerHost(server: server, tools: tools, connection: connection, environment: environment, clock: clock))
    }
}

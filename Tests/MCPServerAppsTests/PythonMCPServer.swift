import Foundation
import ShortcutsSystemTestSupport

@testable import MCPServerApps

/// The test MCP server, written with the official Python MCP SDK, as a configured server.
enum PythonMCPServer {
    /// Its configuration.
    ///
    /// - Parameter spawnLog: A file the server appends its process identifier to when it starts.
    static func configuration(spawnLog: URL? = nil) -> MCPServerConfiguration {
        MCPServerConfiguration(
            name: "weather", command: PythonMCPSDK.python ?? "python3", arguments: [PythonMCPSDK.weatherServer.path],
            environment: spawnLog.map { ["WEATHER_SPAWN_LOG": $0.path] } ?? [:])
    }
}

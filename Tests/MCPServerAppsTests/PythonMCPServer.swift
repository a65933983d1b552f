import Foundation
import ShortcutsTestSupport

@testable import MCPServerApps

/// The test MCP server, written with the official Python MCP SDK, as a configured server.
enum PythonMCPServer {
    /// Its configuration.
    static func configuration(name: String = "weather") -> MCPServerConfiguration {
        MCPServerConfiguration(name: name, command: PythonMCPSDK.python ?? "python3", arguments: [PythonMCPSDK.weatherServer.path])
    }
}

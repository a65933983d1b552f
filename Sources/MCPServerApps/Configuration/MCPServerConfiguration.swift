import Foundation

/// One MCP server as `mcp.json` configures it: the command that starts it over stdio, its
/// arguments and the environment variables added to the engine's.
///
/// ```json
/// {"mcpServers": {"weather": {"command": "python3", "args": ["weather.py"], "env": {"UNITS": "metric"}}}}
/// ```
///
/// The server's tools become the intents of the app `mcp.weather`.
package struct MCPServerConfiguration: Sendable, Hashable, Codable {
    /// The server's name in `mcp.json`; its app is `mcp.NAME`.
    package var name: String
    /// The program: a path, or a name looked up in `PATH`.
    package var command: String
    /// The arguments after the program's name.
    package var arguments: [String]
    /// Variables added to (or replacing those of) the engine's environment.
    package var environment: [String: String]

    /// Creates a configuration.
    package init(name: String, command: String, arguments: [String] = [], environment: [String: String] = [:]) {
        self.name = name
        self.command = command
        self.arguments = arguments
        self.environment = environment
    }

    /// The name of the app the server's tools belong to: `mcp.NAME`.
    package var appName: String { "mcp." + name }

    /// A short text that changes whenever the command, arguments or environment change, so
    /// that a cached tool list is used only for the configuration it was read from.
    ///
    /// ```swift
    /// MCPServerConfiguration(name: "a", command: "x").fingerprint   // "5c7f0e1c2a9b4d31" (16 hex digits)
    /// ```
    package var fingerprint: String {
        var text = command + "\u{0}"
        for argument in arguments { text += argument + "\u{0}" }
        text += "\u{1}"
        for key in environment.keys.sorted() { text += key + "=" + environment[key]! + "\u{0}" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The command line as a person would type it, for listings and messages.
    package var commandLine: String {
        ([command] + arguments).map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

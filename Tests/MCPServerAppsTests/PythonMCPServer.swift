import Foundation
import ShortcutsTestSupport
import Testing

@testable import MCPServerApps

/// The test MCP server in `Fixtures/weather_server.py`, written with the official Python MCP
/// SDK, and whether it can run here (python3 with the `mcp` module).
enum PythonMCPServer {
    /// The server script.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/weather_server.py")

    /// The `python3` in `PATH`, if it can import `mcp`.
    static let python: String? = {
        guard let path = MCPServerProcess.lookUp("python3", in: ProcessInfo.processInfo.environment["PATH"]) else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-c", "import mcp"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? path : nil
    }()

    /// Whether the tests that need it run: when it is there, or when skipping is refused.
    static var isAvailable: Bool { python != nil || SystemComponents.isRequired }

    /// Why they are skipped otherwise.
    static let reason: Comment = "needs python3 with the official MCP SDK (python3 -m pip install mcp)"

    /// The server's configuration, logging each start to `spawnLog`.
    static func configuration(name: String = "weather", spawnLog: URL? = nil) -> MCPServerConfiguration {
        MCPServerConfiguration(
            name: name, command: python ?? "python3", arguments: [script.path],
            environment: spawnLog.map { ["WEATHER_SPAWN_LOG": $0.path] } ?? [:])
    }
}

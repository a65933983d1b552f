import Foundation
import ShortcutsTestSupport
import Testing

/// Python with the official MCP SDK (`python3 -m pip install mcp`), which the MCP tests use,
/// and the test MCP server written with it (`Tests/EndToEndTests/Fixtures/MCP/weather_server.py`).
///
/// ```swift
/// @Suite(.enabled(if: PythonMCPSDK.isAvailable, PythonMCPSDK.reason))
/// struct MCPTests { … }
/// ```
public enum PythonMCPSDK {
    /// The `python3` found in `PATH`, if it imports `mcp`.
    public static let python: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = folders.map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-c", "import mcp"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? path : nil
    }()

    /// Whether the tests that need it run: when it is there, or when skipping is refused
    /// (``SystemComponents/isRequired``), so that they fail instead.
    public static var isAvailable: Bool { python != nil || SystemComponents.isRequired }

    /// Why those tests are skipped otherwise.
    public static let reason: Comment = "needs python3 with the official MCP SDK (python3 -m pip install mcp)"

    /// The test MCP server: its tools `forecast` (structured content), `shout` (text), `explode`
    /// (fails), `crash` (exits), `stall` (never answers) and `greet` (asks for a name).
    public static let weatherServer = PackagePaths.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/MCP/weather_server.py")
}

import Foundation

/// Runs the built `shortcuts` executable in a private `$SHORTCUTS_HOME`.
struct ShortcutsBinary {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-e2e-\(UUID().uuidString)")
    }

    /// The package's folder (workflow paths in tests are relative to it).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The executable beside the test bundle (both are products of the same build).
    static var executable: URL {
        if let override = ProcessInfo.processInfo.environment["SHORTCUTS_BINARY"] { return URL(fileURLWithPath: override) }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shortcuts")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/shortcuts")
    }

    func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        process.environment = environment
        process.currentDirectoryURL = Self.packageRoot
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                      error: String(decoding: errorData, as: UTF8.self))
    }
}

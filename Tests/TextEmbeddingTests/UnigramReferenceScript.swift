import Foundation
import ShortcutsTestSupport
import Testing

/// `Scripts/unigram-model-reference.py`, run with a `python3` that has numpy and Hugging Face
/// `tokenizers` (`pip install numpy tokenizers`).
enum UnigramReferenceScript {
    static let python: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = folders.map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        return (try? run(path, ["-c", "import numpy, tokenizers"])) != nil ? path : nil
    }()

    /// Whether the tests that need it run (they fail instead of skipping under `SHORTCUTS_TESTS_REQUIRE_ALL=1`).
    static var isAvailable: Bool { python != nil || SystemComponents.isRequired }

    static let reason: Comment = "needs python3 with numpy and tokenizers (pip install numpy tokenizers)"

    static let script = PackagePaths.root.appendingPathComponent("Scripts/unigram-model-reference.py")

    /// Runs the script and returns what it printed.
    static func run(_ arguments: [String]) throws -> Data {
        guard let python else { throw ScriptFailure(message: "python3 with numpy and tokenizers is not installed") }
        return try run(python, [script.path] + arguments)
    }

    /// Hugging Face's ids for each text.
    static func tokenIDs(tokenizerFile: URL, texts: [String]) throws -> [[Int32]] {
        let textsFile = TemporaryFolder.unusedPath(prefix: "unigram-texts")
        defer { try? FileManager.default.removeItem(at: textsFile) }
        try JSONEncoder().encode(texts).write(to: textsFile)
        return try JSONDecoder().decode([[Int32]].self, from: run(["tokens", tokenizerFile.path, textsFile.path]))
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScriptFailure(message: "\(arguments.prefix(2).joined(separator: " ")) failed: \(String(decoding: complaints, as: UTF8.self))")
        }
        return printed
    }
}

import Foundation

/// Runs the built `shortcuts` executable in a private, fresh `$SHORTCUTS_HOME`.
///
/// Standard output and standard error go to files, not pipes, so a command that writes more
/// than a pipe holds (64 KiB) to both never blocks while the other is being read.
///
/// ```swift
/// let shortcuts = try ShortcutsBinary()
/// let result = try shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
/// #expect(result.status == 0)
/// ```
public struct ShortcutsBinary: Sendable {
    /// What a finished command produced.
    public struct Result: Sendable {
        /// The exit status (or the signal's number when it was killed).
        public var status: Int32
        /// Everything written to standard output.
        public var output: String
        /// Everything written to standard error.
        public var error: String
    }

    /// The `$SHORTCUTS_HOME` of every command run through this value (created on first use).
    public let home: URL
    /// The executable that runs.
    public let executable: URL

    /// Prepares a fresh home (not created until a command needs it).
    ///
    /// - Parameter executable: The binary to run; the one built with the tests by default.
    public init(executable: URL = ShortcutsBinary.executable) throws {
        home = TemporaryFolder.unusedPath(prefix: "shortcuts-e2e")
        self.executable = executable
    }

    /// The package's folder (workflow paths in tests are relative to it).
    public static var packageRoot: URL { PackagePaths.root }

    /// The executable beside the test bundle (both are products of the same build), or
    /// `$SHORTCUTS_BINARY`.
    public static var executable: URL {
        if let override = ProcessInfo.processInfo.environment["SHORTCUTS_BINARY"] { return URL(fileURLWithPath: override) }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shortcuts")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return PackagePaths.root.appendingPathComponent(".build/debug/shortcuts")
    }

    /// Runs a command and waits for it.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name.
    ///   - input: Text for standard input, which is closed afterwards (empty input by default).
    ///   - directory: The working directory (the package's folder by default).
    ///   - environment: Variables to set or, with `nil`, remove, on top of the test's own.
    ///   - launcher: A program and its arguments that start the binary (`["/usr/bin/nice", "-n", "10"]`).
    /// - Returns: The status and everything written.
    /// - Throws: When the executable cannot be started.
    @discardableResult
    public func run(
        _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        environment changes: [String: String?] = [:], launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        process.currentDirectoryURL = directory ?? PackagePaths.root
        let capture = try TemporaryFolder.make(prefix: "shortcuts-output")
        defer { try? FileManager.default.removeItem(at: capture) }
        let outputFile = capture.appendingPathComponent("stdout")
        let errorFile = capture.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? error.close()
        }
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        // Input larger than a pipe holds is written on another thread, so the command can
        // read it while it also writes.
        let writer = Thread { [handle = standardInput.fileHandleForWriting] in
            if let input { try? handle.write(contentsOf: Data(input.utf8)) }
            try? handle.close()
        }
        writer.start()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self),
            error: String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self))
    }
}

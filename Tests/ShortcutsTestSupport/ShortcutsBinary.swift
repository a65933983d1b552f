import Foundation
import ProcessSpawning

/// Runs the built `shortcuts` executable in a private, fresh `$SHORTCUTS_HOME`.
///
/// Standard input, output and error are files, not pipes, so a command that writes more
/// than a pipe holds (64 KiB) to both never blocks while the other is being read.
///
/// ```swift
/// let shortcuts = try ShortcutsBinary()
/// let result = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
/// #expect(result.status == 0)
/// ```
public struct ShortcutsBinary: Sendable {
    /// What a finished command produced.
    public typealias Result = BackgroundProgram.Result
    /// A command started by ``start(_:input:in:environment:launcher:)``.
    public typealias Started = BackgroundProgram

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

    /// Runs a command and waits for it on a thread of its own, outside Swift's cooperative pool,
    /// so the other tests running beside it keep the pool's threads.
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
    ) async throws -> Result {
        let started = try start(arguments, input: input, in: directory, environment: changes, launcher: launcher)
        return try await detached { started.waitBlocking() }
    }

    /// Starts a command without waiting for it: for a test that signals it, or reads what it
    /// does while it runs. ``Started/finish()`` waits for it and returns what it wrote.
    ///
    /// ```swift
    /// let started = try shortcuts.start(["run", "Workflows/slow.yaml"])
    /// started.signal(SIGTERM)
    /// let result = try await started.finish()   // result.status == SIGTERM
    /// ```
    ///
    /// - Parameters: as ``run(_:input:in:environment:launcher:)``.
    /// - Returns: The running command.
    public func start(
        _ arguments: [String], input: String? = nil, in directory: URL? = nil, environment changes: [String: String?] = [:],
        launcher: [String] = []
    ) throws -> Started {
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        for (name, value) in changes { environment[name] = value }
        let program = launcher.first ?? executable.path
        let argv = (launcher.isEmpty ? [] : Array(launcher.dropFirst()) + [executable.path]) + arguments
        return try BackgroundProgram(executable: program, arguments: argv, input: .text(input ?? ""), in: directory, environment: environment)
    }
}

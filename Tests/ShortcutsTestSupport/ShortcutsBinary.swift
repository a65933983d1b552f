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
    public struct Result: Sendable {
        /// The exit status (or the signal's number when it was killed).
        public var status: Int32
        /// Everything written to standard output.
        public var output: String
        /// Everything written to standard error.
        public var error: String
        /// How long the process ran, measured by the thread that waited for it (a busy pool may
        /// resume the awaiting task later).
        public var seconds: Double
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
        let argv = (launcher.isEmpty ? [executable.path] : launcher + [executable.path]) + arguments

        let capture = try TemporaryFolder.make(prefix: "shortcuts-output")
        let inputFile = capture.appendingPathComponent("stdin").path
        // Input is a file that ends where the text does, as a closed pipe would.
        try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: inputFile))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        SpawnSetup.standardFiles(
            &actions, input: inputFile, output: capture.appendingPathComponent("stdout").path,
            error: capture.appendingPathComponent("stderr").path)
        guard SpawnSetup.changeDirectory(&actions, to: (directory ?? PackagePaths.root).path) else {
            throw SpawnError(message: "this C library cannot start a program in another folder")
        }
        SpawnSetup.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSetup.newProcessGroup(&attributes, defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2])

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(at: capture)
            throw SpawnError(message: "cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        return Started(pid: pid, capture: capture, started: Date())
    }

    /// A command started by ``start(_:input:in:environment:launcher:)``.
    public struct Started: Sendable {
        /// Its process identifier (also its process group's).
        public let pid: pid_t
        /// The folder its standard output and error go to.
        let capture: URL
        let started: Date

        /// What it has written to standard error so far.
        public var errorSoFar: String {
            String(decoding: (try? Data(contentsOf: capture.appendingPathComponent("stderr"))) ?? Data(), as: UTF8.self)
        }

        /// Sends it a signal.
        public func signal(_ number: Int32) {
            kill(pid, number)
        }

        /// Waits for it to end, on a thread of its own, and returns what it wrote.
        public func finish() async throws -> Result {
            try await detached { waitBlocking() }
        }

        /// Waits for it with `waitpid`, reads what it wrote, and removes the files it wrote to.
        func waitBlocking() -> Result {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let seconds = Date().timeIntervalSince(started)
            defer { try? FileManager.default.removeItem(at: capture) }
            // Exited: its status; killed: the signal's number, as `Process` says.
            let signal = status & 0x7f
            return Result(
                status: signal == 0 ? (status >> 8) & 0xff : signal,
                output: String(decoding: (try? Data(contentsOf: capture.appendingPathComponent("stdout"))) ?? Data(), as: UTF8.self),
                error: errorSoFar, seconds: seconds)
        }
    }

    /// The command could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

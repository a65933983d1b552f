import Foundation
import ProcessSpawning
import Synchronization

/// A program a test starts and keeps running while it checks what it does: a daemon, a
/// server, a bus, the binary under test. The one way the tests start a long-running child.
///
/// It leads a process group of its own with default signals. Its standard output and error go
/// to files (a pipe that nobody reads blocks a chatty child), and its standard input is a file
/// that ends where the given text does or, for a program spoken to line by line, a pipe.
/// What it writes is waited for as an event (``waitForOutput(_:in:)``, woken by inotify), and so
/// is its end (``finish()``). Released while it runs, it is killed with its group.
///
/// ```swift
/// let bus = try BackgroundProgram(executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--print-address", "--nofork"])
/// let address = try await bus.waitForOutput("the bus's address") { $0.contains("\n") }
/// ```
public final class BackgroundProgram: Sendable {
    /// What a finished program produced.
    public struct Result: Sendable {
        /// The exit status (or the signal's number when it was killed).
        public var status: Int32
        /// Everything written to standard output.
        public var output: String
        /// Everything written to standard error.
        public var error: String
        /// How long the process ran, measured by the thread that waited for it.
        public var seconds: Double
    }

    /// Where the program's standard input comes from.
    public enum Input: Sendable {
        /// A file holding this text: the program reads it, then the end of its input.
        case text(String)
        /// A pipe the test writes to with ``write(_:)`` and closes with ``closeInput()``.
        case pipe
    }

    /// Which of the program's streams a wait reads.
    public enum Stream: String, Sendable {
        case output = "stdout"
        case error = "stderr"
    }

    /// The program did not start, or did not write what a wait looked for before it ended.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Its process identifier (also its process group's).
    public let pid: pid_t
    /// The folder its standard input, output and error files are in (`stdin`, `stdout`,
    /// `stderr`): a change there is a write by the program.
    public let capture: URL
    let started: Date
    private let inputWriter: Mutex<Int32>
    private let ended = Mutex<Result?>(nil)

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: Its path.
    ///   - arguments: The arguments after its name.
    ///   - input: Its standard input: empty text by default.
    ///   - directory: Its working directory (the package's folder by default).
    ///   - environment: Its whole environment (the test's own by default).
    /// - Throws: ``Failure`` when it cannot be started.
    public init(
        executable: String, arguments: [String], input: Input = .text(""), in directory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let capture = try TemporaryFolder.make(prefix: "program-output")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let inputFile = capture.appendingPathComponent("stdin").path
        try Data((input.text ?? "").utf8).write(to: URL(fileURLWithPath: inputFile))
        SpawnSetup.standardFiles(
            &actions, input: inputFile, output: capture.appendingPathComponent("stdout").path,
            error: capture.appendingPathComponent("stderr").path)
        var writer: Int32 = -1
        var reader: Int32 = -1
        if case .pipe = input {
            guard let pipe = SpawnSetup.closeOnExecPipe() else { throw Failure(description: "no pipe: \(String(cString: strerror(errno)))") }
            (reader, writer) = (pipe.read, pipe.write)
            posix_spawn_file_actions_adddup2(&actions, reader, 0)
        }
        defer { if reader >= 0 { close(reader) } }
        guard SpawnSetup.changeDirectory(&actions, to: (directory ?? PackagePaths.root).path) else {
            throw Failure(description: "this C library cannot start a program in another folder")
        }
        SpawnSetup.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSetup.newProcessGroup(&attributes, defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2])

        let cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            if writer >= 0 { close(writer) }
            try? FileManager.default.removeItem(at: capture)
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.capture = capture
        self.started = Date()
        self.inputWriter = Mutex(writer)
    }

    deinit {
        if ended.withLock({ $0 == nil }) {
            kill(-pid, SIGCONT)
            kill(-pid, SIGKILL)
            _ = reap()
        }
        closeInput()
        try? FileManager.default.removeItem(at: capture)
    }

    /// What it has written to standard output so far.
    public var outputSoFar: String { text(of: .output) }

    /// What it has written to standard error so far.
    public var errorSoFar: String { text(of: .error) }

    /// Whether it still runs (it has not ended, or it ended and nobody has waited for it yet).
    public var isRunning: Bool {
        // Until it is waited for, a program that ended is a zombie.
        ended.withLock { $0 == nil } && ProcessGroupProbe.isRunning(pid)
    }

    /// Sends it a signal.
    public func signal(_ number: Int32) {
        if ended.withLock({ $0 == nil }) { kill(pid, number) }
    }

    /// Writes text to its standard input (given as ``Input/pipe``).
    public func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        try inputWriter.withLock { writer in
            guard writer >= 0 else { throw Failure(description: "the program's input is not a pipe, or is closed") }
            var written = 0
            while written < bytes.count {
                let count = SpawnSetup.withoutPipeSignal {
                    bytes[written...].withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
                }
                guard count > 0 else { throw Failure(description: "the program's input is closed: \(String(cString: strerror(errno)))") }
                written += count
            }
        }
    }

    /// Closes its standard input (given as ``Input/pipe``): it reads the end of its input.
    public func closeInput() {
        inputWriter.withLock { writer in
            if writer >= 0 { close(writer) }
            writer = -1
        }
    }

    /// Waits until what it wrote to `stream` satisfies `condition`, woken by each write (inotify)
    /// and by its end, on a thread of its own.
    ///
    /// - Parameters:
    ///   - what: What the wait is for, named in the error.
    ///   - stream: Standard error (its log) by default.
    /// - Returns: The text that satisfied the condition.
    /// - Throws: ``Failure`` when it ended (or the patience ran out) without writing it; the
    ///   error holds what it wrote.
    @discardableResult
    public func waitForOutput(
        _ what: String, in stream: Stream = .error, patience: Double = 120, _ condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await detached { try self.waitForOutputBlocking(what, in: stream, patience: patience, condition) }
    }

    /// ``waitForOutput(_:in:patience:_:)`` on the calling thread.
    @discardableResult
    public func waitForOutputBlocking(_ what: String, in stream: Stream = .error, patience: Double = 120, _ condition: (String) -> Bool)
        throws -> String
    {
        var exited = false
        let held = try eventuallyBlocking(watching: [.folder(capture), .exit(pid)], patience: patience) {
            // Whether it still ran before its output was read: what a program that ended wrote is
            // all in the file.
            let running = isRunning
            if condition(text(of: stream)) { return true }
            exited = !running
            return exited
        }
        let written = text(of: stream)
        guard held, condition(written) else {
            throw Failure(description: "\(exited ? "it ended" : "it still ran") before writing \(what); it wrote:\n\(written.suffix(4_000))")
        }
        return written
    }

    /// Waits, woken by its end, until it has ended; after the patience it is killed.
    ///
    /// - Returns: What it wrote, and its status.
    /// - Throws: ``Failure`` when it still ran after `patience` seconds.
    public func waitForExit(patience: Double = 120) throws -> Result {
        let ended = try eventuallyBlocking(watching: [.exit(pid)], patience: patience) { !isRunning }
        guard ended else {
            kill(-pid, SIGKILL)
            _ = waitBlocking()
            throw Failure(description: "it still ran after \(Int(patience)) seconds")
        }
        return waitBlocking()
    }

    /// Waits for it to end, on a thread of its own, and returns what it wrote.
    public func finish() async throws -> Result {
        try await detached { self.waitBlocking() }
    }

    /// Sends SIGTERM (and SIGCONT, for a stopped program) and waits for it to end.
    @discardableResult
    public func stop() async throws -> Result {
        signal(SIGCONT)
        signal(SIGTERM)
        return try await finish()
    }

    /// Waits for it with `waitpid` on the calling thread, and reads what it wrote.
    public func waitBlocking() -> Result {
        if let result = ended.withLock({ $0 }) { return result }
        let status = reap()
        let seconds = Date().timeIntervalSince(started)
        // Exited: its status; killed: the signal's number, as `Process` says.
        let signal = status & 0x7f
        let result = Result(
            status: signal == 0 ? (status >> 8) & 0xff : signal, output: outputSoFar, error: errorSoFar, seconds: seconds)
        ended.withLock { $0 = result }
        return result
    }

    private func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    private func text(of stream: Stream) -> String {
        String(decoding: (try? Data(contentsOf: capture.appendingPathComponent(stream.rawValue))) ?? Data(), as: UTF8.self)
    }
}

extension BackgroundProgram.Input {
    fileprivate var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

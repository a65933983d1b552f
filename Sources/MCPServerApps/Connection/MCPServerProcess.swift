import Clockwork
import Foundation
import Glibc
import ProcessSpawning
import Synchronization

/// A started MCP server: a program in a process group of its own, spoken to over its
/// standard input and output, its standard error's end kept for messages.
///
/// Three threads serve it: one reads standard output line by line into ``messages``, one
/// keeps the last 8 KiB of standard error, one waits for the program to end. A line is at most
/// ``lineLimit`` bytes: a program that writes a longer one is ended as soon as the bytes read
/// show it (``wroteLineOverLimit``), so what waits on it fails instead of waiting for an
/// answer that is not read. ``stop()``
/// ends it as the MCP specification asks of a client: standard input closed, then `SIGTERM`
/// to its group, then `SIGKILL`. Every started server is also stopped when the engine's process
/// exits (`atexit`), so that none outlives the engine.
final class MCPServerProcess: Sendable {
    /// How the program ended.
    enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "was killed by signal \(signal)" + (Self.signalNames[signal].map { " (\($0))" } ?? "")
            }
        }

        private static let signalNames: [Int32: String] = [
            SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGINT: "SIGINT",
            SIGPIPE: "SIGPIPE"
        ]
    }

    /// Why the program could not be started.
    struct LaunchError: Error, Sendable, CustomStringConvertible {
        var command: String
        var reason: String
        var description: String { "cannot start '\(command)': \(reason)" }
    }

    let processID: pid_t
    /// The lines the program writes on standard output; finishes at its end of file.
    let messages: AsyncStream<Data>
    private let standardInput: Mutex<Int32>
    private let errorTail = Mutex<[UInt8]>([])
    private let overLimit = Mutex(false)
    private let ended = Latch<Termination>()
    private let errorsEnded = Latch<Void>()
    /// The clock the waits of ``stop(grace:)`` and the other deadlines are measured by.
    let clock: any EngineClock

    /// The most of standard error kept for messages: 8 KiB.
    static let errorTailLimit = 8 * 1024

    /// The longest line read from standard output, in bytes without its newline: 4 MiB, as
    /// `shortcuts mcp` reads.
    static let lineLimit = 4 * 1024 * 1024

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - command: A path, or a name looked up in `PATH`.
    ///   - arguments: The arguments after its name.
    ///   - environment: Its whole environment.
    ///   - clock: The clock its deadlines are measured by; the real one by default.
    /// - Throws: ``LaunchError`` when it cannot be started.
    init(command: String, arguments: [String], environment: [String: String], clock: any EngineClock = .system) throws {
        self.clock = clock
        let input = try Self.pipe()
        let output = try Self.pipe()
        let error = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, error.write, 2)
        SpawnSetup.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSetup.newProcessGroup(&attributes, defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2])

        let executable = SpawnSetup.lookUp(command, in: environment["PATH"])
        let argv = ([command] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        ChildGroups.prepare()
        let result = executable.map { posix_spawn(&pid, $0, &actions, &attributes, argv, envp) } ?? ENOENT
        for descriptor in [input.read, output.write, error.write] { close(descriptor) }
        guard result == 0 else {
            for descriptor in [input.write, output.read, error.read] { close(descriptor) }
            let reason =
                switch result {
                case ENOENT: command.contains("/") ? "no such file" : "no program of that name in PATH"
                case EACCES, EPERM: "permission denied"
                default: String(cString: strerror(result))
                }
            throw LaunchError(command: command, reason: reason)
        }
        processID = pid
        ChildGroups.adopt(pid)
        standardInput = Mutex(input.write)
        _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        var continuation: AsyncStream<Data>.Continuation!
        messages = AsyncStream { continuation = $0 }
        MCPServerProcess.running.withLock { $0[pid] = input.write }
        Self.installExitHandler()
        startReading(output.read, continuation: continuation)
        startKeepingErrors(error.read)
        startWaiting()
    }

    /// The end of what the program wrote on standard error, as text.
    var standardErrorTail: String {
        String(decoding: errorTail.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How the program ended, or `nil` while it runs.
    var termination: Termination? { ended.value }

    /// Whether the program wrote a line longer than ``lineLimit`` and was ended for it.
    var wroteLineOverLimit: Bool { overLimit.withLock { $0 } }

    /// Waits for the program to end.
    func waitForTermination() async -> Termination {
        await ended.wait()
    }

    /// Waits for the program to end, until the process's clock reaches `deadline`.
    ///
    /// - Returns: How it ended, or `nil` when it still runs at the deadline.
    func waitForTermination(until deadline: Date) async -> Termination? {
        await ended.wait(until: deadline, clock: clock)
    }

    /// Waits until standard error has been read to its end, until the clock reaches
    /// `deadline`; says whether it was.
    func waitForStandardErrorEnd(until deadline: Date) async -> Bool {
        await errorsEnded.wait(until: deadline, clock: clock) != nil
    }

    /// Writes one message and a line feed to the program's standard input.
    ///
    /// While the pipe is full, waits for the program to read (the pipe becoming writable),
    /// a few milliseconds of `poll` at a time so that other tasks run between.
    ///
    /// - Throws: ``MCPServerConnectionError/closed`` once the program no longer reads;
    ///   `CancellationError`.
    func send(_ message: Data) async throws {
        var remaining = message + [UInt8(ascii: "\n")]
        while !remaining.isEmpty {
            let written = try writeSome(remaining)
            if written > 0 {
                remaining = remaining.dropFirst(written)
            } else {
                try Task.checkCancellation()
                waitUntilWritable()
                await Task.yield()
            }
        }
    }

    /// Waits (at most 2 ms, by `poll`) until standard input takes more bytes or is closed.
    private func waitUntilWritable() {
        standardInput.withLock { descriptor in
            guard descriptor >= 0 else { return }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 2)
        }
    }

    /// Writes what the pipe takes now, with `SIGPIPE` held back so that a program that has gone
    /// makes the write fail instead of ending the engine.
    private func writeSome(_ data: Data) throws -> Int {
        try standardInput.withLock { descriptor -> Int in
            guard descriptor >= 0 else { throw MCPServerConnectionError.closed }
            let count = SpawnSetup.withoutPipeSignal { data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
            if count >= 0 { return count }
            let failure = errno
            if failure == EAGAIN || failure == EINTR { return 0 }
            throw MCPServerConnectionError.closed
        }
    }

    /// Ends the program: standard input closed, then `SIGTERM` to its group after `grace`,
    /// then `SIGKILL` after as long again.
    ///
    /// - Parameter grace: How long the program has to exit by itself.
    func stop(grace: Duration = .seconds(1)) async {
        closeStandardInput()
        if await waitForTermination(until: clock.now().adding(grace)) == nil {
            killpg(processID, SIGTERM)
            if await waitForTermination(until: clock.now().adding(grace)) == nil {
                killpg(processID, SIGKILL)
            }
        }
        _ = await waitForTermination()
        killpg(processID, SIGKILL)
    }

    private func closeStandardInput() {
        standardInput.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
        MCPServerProcess.running.withLock { running in
            if running[processID] != nil { running[processID] = -1 }
        }
    }

    // MARK: - Threads

    private func startReading(_ descriptor: Int32, continuation: AsyncStream<Data>.Continuation) {
        Thread { [self] in
            // A last line without its newline is no message.
            var lines = LineSplitter(limit: Self.lineLimit, skippingBlankLines: true)
            lines.read(from: descriptor) { event in
                switch event {
                case .line(let line):
                    continuation.yield(line)
                case .limitExceeded:
                    // A message that long is no answer the client can take: its request would
                    // wait for ever. The rest of the line is read and dropped until the end.
                    overLimit.withLock { $0 = true }
                    if termination == nil { killpg(processID, SIGKILL) }
                case .tooLong:
                    break
                }
            }
            close(descriptor)
            continuation.finish()
        }.start()
    }

    private func startKeepingErrors(_ descriptor: Int32) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                errorTail.withLock { tail in
                    tail.append(contentsOf: buffer[..<count])
                    if tail.count > Self.errorTailLimit { tail.removeFirst(tail.count - Self.errorTailLimit) }
                }
            }
            close(descriptor)
            errorsEnded.set(())
        }.start()
    }

    private func startWaiting() {
        let processID = processID
        Thread { [self] in
            // Whatever the server left running in its group ends with it.
            let status = ChildGroups.waitForLeader(processID)
            let termination: Termination =
                (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
            MCPServerProcess.running.withLock { _ = $0.removeValue(forKey: processID) }
            ended.set(termination)
        }.start()
    }

    // MARK: - Ending with the engine

    /// The running servers' process identifiers, with their standard input's descriptor (-1 once closed).
    private static let running = Mutex<[pid_t: Int32]>([:])
    private static let exitHandlerInstalled = Mutex(false)

    private static func installExitHandler() {
        let first = exitHandlerInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if first { atexit { MCPServerProcess.stopAllNow() } }
    }

    /// Ends every server still running, synchronously: standard input closed, up to half a
    /// second to exit, then `SIGTERM` to the groups, then `SIGKILL`.
    ///
    /// It runs as the process exits, when no server's clock is at hand: it waits by the real
    /// clock, looking at the servers every 5 ms of it.
    static func stopAllNow(clock: any EngineClock = .system) {
        let servers = running.withLock { $0 }
        guard !servers.isEmpty else { return }
        for descriptor in servers.values where descriptor >= 0 { close(descriptor) }
        func waitForAll(_ milliseconds: Int) -> Bool {
            for _ in 0..<(milliseconds / 5) {
                if servers.keys.allSatisfy({ kill($0, 0) != 0 || isZombie($0) }) { return true }
                clock.pause(for: .milliseconds(5))
            }
            return false
        }
        if !waitForAll(500) {
            for processID in servers.keys { killpg(processID, SIGTERM) }
            if !waitForAll(500) {
                for processID in servers.keys { killpg(processID, SIGKILL) }
            }
        }
        for processID in servers.keys { killpg(processID, SIGKILL) }
    }

    /// Whether a child has ended but not been waited for yet.
    private static func isZombie(_ processID: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8) else { return true }
        guard let close = status.lastIndex(of: ")") else { return false }
        return status[status.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    // MARK: - System calls

    private static func pipe() throws -> (read: Int32, write: Int32) {
        guard let ends = SpawnSetup.closeOnExecPipe() else { throw LaunchError(command: "pipe", reason: String(cString: strerror(errno))) }
        return ends
    }
}

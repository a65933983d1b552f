import Clockwork
import ExtensionSpawn
import Foundation
import Glibc
import ProcessSpawning
import Synchronization

/// A running extension: its process, the pipe to its standard input, and the threads that
/// read its standard output and standard error line by line and wait for its exit.
///
/// The process starts as the leader of a process group of its own (a Ctrl-C on the terminal
/// reaches the engine, which ends its extensions itself) and dies with the engine
/// (`PR_SET_PDEATHSIG`, see ``LauncherThread``). Every process still running when the engine
/// exits is ended by ``endAll()``, which the engine runs at `exit`.
///
/// ```swift
/// let process = try ExtensionProcess.start(
///     executable: "/usr/local/bin/greeter", arguments: ["extension", "serve"],
///     events: ExtensionProcess.Events(output: { line in print(line.count) }, error: { print($0) }, exit: { print($0) }))
/// process.write(Data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}\n".utf8))
/// ```
package final class ExtensionProcess: Sendable {
    /// What the reading threads report.
    package struct Events: Sendable {
        /// One line of standard output, without its line break.
        var output: @Sendable (OutputLine) -> Void
        /// One line of standard error.
        var error: @Sendable (String) -> Void
        /// The process ended (called once, after its standard output was read to the end).
        var exit: @Sendable (ProcessTermination) -> Void

        package init(
            output: @escaping @Sendable (OutputLine) -> Void, error: @escaping @Sendable (String) -> Void,
            exit: @escaping @Sendable (ProcessTermination) -> Void
        ) {
            self.output = output
            self.error = error
            self.exit = exit
        }
    }

    /// A line of standard output, or a line too long to be a message.
    package enum OutputLine: Sendable {
        case line(Data)
        case tooLong
    }

    /// The longest line read from standard output: 64 MiB.
    static let lineLimit = 64 * 1024 * 1024

    /// The process's id.
    package let pid: pid_t
    private let input: Mutex<Int32>
    private let termination = Mutex<ProcessTermination?>(nil)
    private let exitCondition = NSCondition()
    /// Set, and `exitCondition` broadcast, once standard output reached its end.
    private let outputEnded = Mutex(false)
    private let errorEnded = Mutex(false)
    private let stopping = Mutex(false)
    /// How reading standard output ended, once the process was ended for closing it.
    private let closedOutput = Mutex<String?>(nil)

    /// What the waits for the process to end are measured by.
    private let clock: any EngineClock

    private init(pid: pid_t, input: Int32, clock: any EngineClock) {
        self.pid = pid
        self.input = Mutex(input)
        self.clock = clock
    }

    /// Why a process could not start.
    package struct StartError: Error, CustomStringConvertible {
        package var executable: String
        package var reason: String
        package var description: String { "cannot start \(executable): \(reason)" }
    }

    /// Starts a program with pipes on its standard input, output and error.
    ///
    /// - Parameters:
    ///   - executable: The program's absolute path.
    ///   - arguments: The arguments after its name.
    ///   - environment: Its whole environment (the engine's by default).
    ///   - events: Where its output, error lines and exit go.
    ///   - clock: What the waits for it to end are measured by.
    /// - Returns: The running process.
    /// - Throws: ``StartError`` when the program cannot be started.
    package static func start(
        executable: String, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        events: Events, clock: any EngineClock = .system
    ) throws -> ExtensionProcess {
        ExitCleanup.installOnce()
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard extension_pipe(&inputPipe) == 0 else { throw StartError(executable: executable, reason: String(cString: strerror(errno))) }
        guard extension_pipe(&outputPipe) == 0, extension_pipe(&errorPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            for descriptor in inputPipe + outputPipe + errorPipe where descriptor >= 0 { close(descriptor) }
            throw StartError(executable: executable, reason: reason)
        }
        let argumentList = [executable] + arguments
        let environmentList = environment.map { "\($0.key)=\($0.value)" }
        let childInput = inputPipe[0]
        let childOutput = outputPipe[1]
        let childError = errorPipe[1]
        ChildGroups.prepare()
        let (pid, failure) = LauncherThread.shared.run { () -> (pid_t, Int32) in
            var failure: Int32 = 0
            let pid = withCStrings(argumentList) { argv in
                withCStrings(environmentList) { envp in
                    extension_spawn(executable, argv, envp, childInput, childOutput, childError, &failure)
                }
            }
            return (pid, failure)
        }
        close(childInput)
        close(childOutput)
        close(childError)
        guard pid > 0 else {
            close(inputPipe[1])
            close(outputPipe[0])
            close(errorPipe[0])
            let reason = failure == ENOENT ? "no such file" : String(cString: strerror(failure)).lowercased()
            throw StartError(executable: executable, reason: reason)
        }
        ChildGroups.adopt(pid)
        let process = ExtensionProcess(pid: pid, input: inputPipe[1], clock: clock)
        LiveProcesses.shared.add(process)
        process.startThreads(output: outputPipe[0], error: errorPipe[0], events: events)
        return process
    }

    private func startThreads(output: Int32, error: Int32, events: Events) {
        let outputThread = Thread { [self] in
            var lines = LineSplitter(limit: Self.lineLimit)
            let failure = lines.read(from: output) { event in
                switch event {
                case .line(let line): events.output(.line(line))
                // Said as soon as it shows, so that an extension writing without end is ended.
                case .limitExceeded: events.output(.tooLong)
                case .tooLong: break
                }
            }
            if case .line(let last)? = lines.finish() { events.output(.line(last)) }
            close(output)
            exitCondition.withLock {
                outputEnded.withLock { $0 = true }
                exitCondition.broadcast()
            }
            // A process that closed its standard output but goes on is of no use: end it, and
            // say so rather than only "signal 9".
            if !waitForExit(timeout: 2) {
                closedOutput.withLock { $0 = failure.map { "reading it failed: \(String(cString: strerror($0)))" } ?? "end of file" }
                signal(SIGKILL)
            }
        }
        outputThread.name = "extension output \(pid)"
        outputThread.start()
        let errorThread = Thread { [self] in
            // Lines longer than 64 KiB are dropped.
            var lines = LineSplitter(limit: 64 * 1024)
            lines.read(from: error) { event in
                if case .line(let line) = event { events.error(String(decoding: line, as: UTF8.self)) }
            }
            if case .line(let last)? = lines.finish() { events.error(String(decoding: last, as: UTF8.self)) }
            close(error)
            exitCondition.withLock {
                errorEnded.withLock { $0 = true }
                exitCondition.broadcast()
            }
        }
        errorThread.name = "extension error \(pid)"
        errorThread.start()
        let waitThread = Thread { [self] in
            // What the extension started and left in its group ends with it.
            let status = ChildGroups.waitForLeader(pid)
            var ended = ProcessTermination(waitStatus: status)
            if ended == .signaled(SIGKILL), let why = closedOutput.withLock({ $0 }) { ended = .endedAfterClosingOutput(why: why) }
            // Answers and errors written just before the exit (a traceback) are read before the
            // exit is reported, unless a program the extension left running holds the pipes.
            let deadline = clock.now().addingTimeInterval(1)
            exitCondition.withLock {
                while !(outputEnded.withLock({ $0 }) && errorEnded.withLock({ $0 })), clock.wait(on: exitCondition, until: deadline) {}
            }
            input.withLock { descriptor in
                if descriptor >= 0 { close(descriptor) }
                descriptor = -1
            }
            exitCondition.lock()
            termination.withLock { $0 = ended }
            exitCondition.broadcast()
            exitCondition.unlock()
            LiveProcesses.shared.remove(self)
            events.exit(ended)
        }
        waitThread.name = "extension wait \(pid)"
        waitThread.start()
    }

    /// How the process ended, or `nil` while it runs.
    package var ended: ProcessTermination? { termination.withLock { $0 } }

    /// Writes bytes to the process's standard input.
    ///
    /// - Returns: `false` when the process no longer reads its input.
    @discardableResult
    package func write(_ data: Data) -> Bool {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            return data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
        }
    }

    /// Whether the engine asked the process to stop: its exit is expected.
    package var isStopping: Bool {
        get { stopping.withLock { $0 } }
        set { stopping.withLock { $0 = newValue } }
    }

    /// Closes the process's standard input.
    package func closeInput() {
        input.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// Sends a signal to the process and the processes it started in its group, unless it
    /// has been waited for.
    package func signal(_ number: Int32) {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        if termination.withLock({ $0 }) == nil { kill(-pid, number) }
    }

    /// Waits for the process to end.
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: Whether it has ended.
    @discardableResult
    package func waitForExit(timeout: TimeInterval) -> Bool {
        waitForExit(until: clock.now().addingTimeInterval(timeout), by: clock)
    }

    /// Waits for the process to end until a deadline by a clock.
    private func waitForExit(until deadline: Date, by clock: any EngineClock) -> Bool {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        while termination.withLock({ $0 }) == nil {
            if !clock.wait(on: exitCondition, until: deadline) { return termination.withLock { $0 } != nil }
        }
        return true
    }

    /// Ends the process: `SIGTERM`, then `SIGKILL` after `grace` seconds.
    package func terminate(grace: TimeInterval) {
        signal(SIGTERM)
        if !waitForExit(timeout: grace) {
            signal(SIGKILL)
            waitForExit(timeout: 5)
        }
    }

    /// Ends every extension process still running: each gets `shutdown` (its standard input
    /// closed), then `SIGTERM` after half a second and `SIGKILL` half a second later.
    package static func endAll() {
        let running = LiveProcesses.shared.all
        guard !running.isEmpty else { return }
        for process in running {
            process.isStopping = true
            process.write(Data(#"{"jsonrpc":"2.0","id":"exit","method":"shutdown"}"#.utf8 + [0x0A]))
            process.closeInput()
        }
        // The engine is exiting: these waits are real time whatever clock the processes had,
        // so that an exit is never held up by a clock nobody advances.
        let clock = SystemClock()
        let deadline = clock.now().addingTimeInterval(0.5)
        for process in running { process.waitForExit(until: deadline, by: clock) }
        for process in running where process.ended == nil { process.signal(SIGTERM) }
        let killDeadline = clock.now().addingTimeInterval(0.5)
        for process in running { process.waitForExit(until: killDeadline, by: clock) }
        for process in running where process.ended == nil {
            process.signal(SIGKILL)
            process.waitForExit(until: clock.now().addingTimeInterval(1), by: clock)
        }
    }
}

/// The extension processes that have not been waited for yet.
final class LiveProcesses: Sendable {
    static let shared = LiveProcesses()
    private let processes = Mutex<[ObjectIdentifier: ExtensionProcess]>([:])

    func add(_ process: ExtensionProcess) { processes.withLock { $0[ObjectIdentifier(process)] = process } }
    func remove(_ process: ExtensionProcess) { _ = processes.withLock { $0.removeValue(forKey: ObjectIdentifier(process)) } }
    var all: [ExtensionProcess] { processes.withLock { Array($0.values) } }
}

/// Ends the running extensions when the engine calls `exit`.
enum ExitCleanup {
    private static let installed = Mutex(false)

    static func installOnce() {
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        // Writing to an extension that has exited must fail with EPIPE, not kill the engine.
        Glibc.signal(SIGPIPE, SIG_IGN)
        atexit { ExtensionProcess.endAll() }
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

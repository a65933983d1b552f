import Clockwork
import Foundation
import Glibc
import ProcessSpawning
import Synchronization

/// One program run to its end in a process group of its own, with its standard output and
/// standard error read at the same time and its standard input fed from memory.
///
/// The program is started with `posix_spawn` as the leader of a new process group, so that
/// everything it starts (a shell's pipelines, `sleep 30 &`) can be ended together:
///
/// - **Time.** Every deadline (the timeout, the grace period, the drain period) is measured
///   by ``clock``; waits end on an event (a pipe, the leader's pidfd, the clock's alarm), so
///   a program that exits by itself ends the run whether or not anyone moves a test's clock.
/// - **Timeout and cancellation.** When ``timeout`` passes or the calling task is cancelled,
///   the whole group gets `SIGTERM`, and `SIGKILL` after ``terminationGracePeriod`` (2 seconds)
///   if the leader is still running.
/// - **Leftovers.** When the leader exits, whatever it left running in its group gets
///   `SIGKILL`: a step ends with nothing of it still running. A program meant to outlive the
///   step starts in a session of its own (`setsid`).
/// - **Output.** Standard output is kept up to ``outputLimit`` (16 MiB by default); past it the
///   group is ended as on a timeout and ``Outcome/stop`` is ``Stop/outputTooLarge``. Standard
///   error keeps its last ``errorTailLimit`` bytes (64 KiB).
/// - **No zombies.** The leader is always waited for; the processes it leaves are ended and
///   reaped by the system's init.
/// - **After the engine.** The group is given to ``ChildGroups``, whose guard ends it when
///   the engine ends in any way, `SIGTERM` and `SIGKILL` included.
///
/// ```swift
/// let outcome = try await ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo hi; exit 3"]).run()
/// outcome.termination            // .exited(3)
/// outcome.standardOutputText     // "hi\n"
/// ```
package struct ChildProcess: Sendable {
    /// The program's path (a name is not looked up: see `SpawnSetup.lookUp(_:in:)`).
    var executable: String
    /// The arguments after the program's name.
    var arguments: [String] = []
    /// The whole environment of the program.
    var environment: [String: String] = ProcessInfo.processInfo.environment
    /// The folder the program starts in; the caller's current folder when `nil`.
    var workingDirectory: String?
    /// Descriptors the program gets as 3, 4, …; every other one from 3 up is closed.
    var passedDescriptors: [Int32] = []
    /// What the program reads on standard input; `/dev/null` when `nil`.
    var input: [UInt8]?
    /// How long the program may run before its group is ended; no limit when `nil`.
    var timeout: Duration?
    /// The clock the timeout, the grace period and the drain period are measured by.
    var clock: any EngineClock = .system
    /// The most standard output kept, in bytes: 16 MiB.
    var outputLimit = 16 * 1024 * 1024
    /// How much of the end of standard error is kept, in bytes: 64 KiB.
    var errorTailLimit = 64 * 1024

    /// How long the group has between `SIGTERM` and `SIGKILL`: 2 seconds.
    static let terminationGracePeriod: Duration = .seconds(2)
    /// How long output is still read after the leader exited and its group was ended, for a
    /// program that escaped the group and still holds the pipes: 1 second.
    static let drainPeriod: Duration = .seconds(1)

    /// A program to run with arguments, in the caller's environment and folder.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: The arguments after its name.
    ///   - clock: The clock its deadlines are measured by; the real one by default.
    package init(executable: String, arguments: [String] = [], clock: any EngineClock = .system) {
        self.executable = executable
        self.arguments = arguments
        self.clock = clock
    }

    /// How the leader ended.
    package enum Termination: Sendable, Equatable {
        /// It exited with a status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// Why the group was ended before the leader exited on its own.
    package enum Stop: Sendable, Equatable {
        /// The ``ChildProcess/timeout`` passed.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
        /// Standard output went past ``ChildProcess/outputLimit``.
        case outputTooLarge
    }

    /// What a run produced.
    package struct Outcome: Sendable {
        /// The leader's process identifier, which is also its group's.
        var processID: pid_t
        /// How the leader ended.
        package var termination: Termination
        /// Why the group was ended early, if it was.
        var stop: Stop?
        /// Standard output (at most ``ChildProcess/outputLimit`` bytes).
        package var standardOutput: [UInt8]
        /// The end of standard error (at most ``ChildProcess/errorTailLimit`` bytes).
        var standardError: [UInt8]
        /// From the start to the leader's end, by the run's clock.
        var duration: Duration

        /// Standard output as UTF-8 text (invalid bytes replaced).
        var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// The end of standard error as UTF-8 text (invalid bytes replaced).
        var standardErrorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Why the program could not be started.
    enum LaunchError: Swift.Error, Sendable, Equatable {
        /// No file is at the path.
        case notFound(String)
        /// The file is not executable (or a folder on the way cannot be searched).
        case permissionDenied(String)
        /// The working directory does not exist or is not a folder.
        case workingDirectory(String)
        /// `posix_spawn` failed with another error.
        case failed(String, reason: String)
    }

    /// Runs the program to its end (or until it is stopped) and returns what it produced.
    ///
    /// ```swift
    /// var child = ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30 & wait"])
    /// child.timeout = .seconds(1)
    /// let outcome = try await child.run()   // outcome.stop == .timedOut; nothing of it runs on
    /// ```
    ///
    /// - Returns: How it ended and what it wrote.
    /// - Throws: ``LaunchError`` when it cannot be started.
    package func run() async throws -> Outcome {
        let started = clock.now()
        let running = try spawn()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let supervisor = Thread {
                    continuation.resume(returning: running.supervise(self, started: started))
                }
                supervisor.start()
            }
        } onCancel: {
            running.cancellation.signal()
        }
        return outcome
    }
}

// MARK: - Starting

extension ChildProcess {
    /// A started program: its pid, the parent's ends of its pipes and how to cancel it.
    final class Running: Sendable {
        let processID: pid_t
        let processDescriptor: Int32
        let standardInput: Int32
        let standardOutput: Int32
        let standardError: Int32
        let cancellation: CancellationPipe
        let alarm: DeadlineAlarm

        init(
            processID: pid_t, processDescriptor: Int32, standardInput: Int32, standardOutput: Int32, standardError: Int32,
            cancellation: CancellationPipe, alarm: DeadlineAlarm
        ) {
            self.processID = processID
            self.processDescriptor = processDescriptor
            self.standardInput = standardInput
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.cancellation = cancellation
            self.alarm = alarm
        }
    }

    /// Starts the program in a new process group with its three pipes.
    private func spawn() throws -> Running {
        if let workingDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: workingDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw LaunchError.workingDirectory(workingDirectory)
            }
        }
        let output = try Self.pipe()
        let error = try Self.pipe()
        let inputPipe = try input.map { _ in try Self.pipe() }
        let cancellation = try CancellationPipe()
        let alarm: DeadlineAlarm
        do {
            alarm = try DeadlineAlarm(clock: clock)
        } catch {
            cancellation.close()
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inputPipe {
            posix_spawn_file_actions_adddup2(&actions, inputPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, error.write, 2)
        for (offset, descriptor) in passedDescriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, 3 + Int32(offset))
        }
        if let workingDirectory, !SpawnSetup.changeDirectory(&actions, to: workingDirectory) {
            throw LaunchError.failed(executable, reason: "this C library cannot start a program in another folder")
        }
        SpawnSetup.closeInheritedDescriptors(&actions, from: 3 + Int32(passedDescriptors.count))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSetup.newProcessGroup(
            &attributes, defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2])

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        ChildGroups.prepare()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends belong to the child now.
        for descriptor in [output.write, error.write, inputPipe?.read].compactMap({ $0 }) { close(descriptor) }
        guard result == 0 else {
            for descriptor in [output.read, error.read, inputPipe?.write].compactMap({ $0 }) { close(descriptor) }
            cancellation.close()
            alarm.close()
            switch result {
            case ENOENT: throw LaunchError.notFound(executable)
            case EACCES, EPERM: throw LaunchError.permissionDenied(executable)
            default: throw LaunchError.failed(executable, reason: String(cString: strerror(result)))
            }
        }
        ChildGroups.adopt(pid)
        for descriptor in [output.read, error.read, inputPipe?.write].compactMap({ $0 }) {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return Running(
            processID: pid, processDescriptor: SpawnSetup.openProcessDescriptor(pid), standardInput: inputPipe?.write ?? -1,
            standardOutput: output.read, standardError: error.read, cancellation: cancellation, alarm: alarm)
    }

    /// A pipe whose ends are closed on `exec` (the child gets copies through `dup2`), made
    /// with `pipe2(O_CLOEXEC)` so that no program started meanwhile on another thread inherits it.
    static func pipe() throws -> (read: Int32, write: Int32) {
        guard let ends = SpawnSetup.closeOnExecPipe() else {
            throw LaunchError.failed("pipe", reason: String(cString: strerror(errno)))
        }
        return ends
    }
}

/// A pipe that wakes the supervisor when the calling task is cancelled.
final class CancellationPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Mutex<Int32>

    init() throws {
        let ends = try ChildProcess.pipe()
        readEnd = ends.read
        writeEnd = Mutex(ends.write)
    }

    /// Wakes the supervisor (once is enough; later calls do nothing after ``close()``).
    func signal() {
        writeEnd.withLock { descriptor in
            guard descriptor >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    /// Closes both ends.
    func close() {
        writeEnd.withLock { descriptor in
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            descriptor = -1
        }
        _ = Glibc.close(readEnd)
    }
}

/// A pipe that wakes the supervisor's `poll` when a clock reaches a deadline: the supervisor
/// waits for events only, and the deadline is kept by the clock (a test's manual clock rings
/// it when advanced past the deadline).
///
/// ```swift
/// let alarm = try DeadlineAlarm(clock: .system)
/// alarm.set(clock.now().adding(.seconds(2)))   // readEnd becomes readable in 2 seconds
/// ```
final class DeadlineAlarm: Sendable {
    let readEnd: Int32
    let clock: any EngineClock
    private let state: Mutex<State>

    private struct State {
        var writeEnd: Int32
        var deadline: Date?
        var ringer: Task<Void, Never>?
    }

    init(clock: any EngineClock) throws {
        let ends = try ChildProcess.pipe()
        _ = fcntl(ends.read, F_SETFL, fcntl(ends.read, F_GETFL) | O_NONBLOCK)
        _ = fcntl(ends.write, F_SETFL, fcntl(ends.write, F_GETFL) | O_NONBLOCK)
        readEnd = ends.read
        self.clock = clock
        state = Mutex(State(writeEnd: ends.write))
    }

    /// Rings at `deadline` (by the clock) instead of at the deadline set before; never when
    /// `nil`. Setting the deadline already set changes nothing.
    func set(_ deadline: Date?) {
        state.withLock { state in
            guard state.deadline != deadline else { return }
            state.ringer?.cancel()
            state.deadline = deadline
            state.ringer = deadline.map { deadline in
                Task.detached { [self] in
                    guard (try? await clock.sleep(until: deadline)) != nil else { return }
                    ring()
                }
            }
        }
    }

    /// Empties the pipe after it rang.
    func reset() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    private func ring() {
        state.withLock { state in
            guard state.writeEnd >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(state.writeEnd, &byte, 1)
        }
    }

    /// Stops ringing and closes both ends.
    func close() {
        state.withLock { state in
            state.ringer?.cancel()
            state.ringer = nil
            if state.writeEnd >= 0 { _ = Glibc.close(state.writeEnd) }
            state.writeEnd = -1
        }
        _ = Glibc.close(readEnd)
    }
}

import Clockwork
import Foundation
import ProcessSpawning

#if canImport(Glibc)
    import Glibc
#endif

/// The program that reads and writes the clipboard of this session: `wl-paste`/`wl-copy` when
/// `WAYLAND_DISPLAY` is set, else `xclip -selection clipboard` when `DISPLAY` is set.
///
/// ```swift
/// let tool = try ClipboardTool.find()
/// try tool.write("hello")
/// try tool.read()   // "hello"
/// ```
struct ClipboardTool {
    /// The command that prints the clipboard.
    var readCommand: [String]
    /// The command that takes the clipboard's new text on standard input.
    var writeCommand: [String]
    /// The environment the commands run with.
    var environment: [String: String]
    /// The clock the commands' timeout and the wait for a written text are measured by.
    var clock: any EngineClock = .system

    /// The longest a command may take.
    static let timeout = 5

    /// The tool of the session the environment describes.
    ///
    /// - Parameters:
    ///   - environment: Where `WAYLAND_DISPLAY`, `DISPLAY` and `PATH` are read.
    ///   - clock: The clock the tool's waits are measured by.
    /// - Returns: The tool.
    /// - Throws: ``ClipboardApp/Error/noGraphicalSession`` without a display,
    ///   ``ClipboardApp/Error/toolMissing(variable:tool:package:)`` when its program is not installed.
    static func find(
        environment: [String: String] = ProcessInfo.processInfo.environment, clock: any EngineClock = TaskClock.current
    ) throws -> ClipboardTool {
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        let search = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func locate(_ name: String) -> String? {
            search.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if wayland, let paste = locate("wl-paste"), let copy = locate("wl-copy") {
            return ClipboardTool(readCommand: [paste, "--no-newline"], writeCommand: [copy], environment: environment, clock: clock)
        }
        if x11, let xclip = locate("xclip") {
            return ClipboardTool(
                readCommand: [xclip, "-selection", "clipboard", "-o"], writeCommand: [xclip, "-selection", "clipboard", "-i"],
                environment: environment, clock: clock)
        }
        if wayland { throw ClipboardApp.Error.toolMissing(variable: "WAYLAND_DISPLAY", tool: "wl-copy/wl-paste", package: "wl-clipboard") }
        if x11 { throw ClipboardApp.Error.toolMissing(variable: "DISPLAY", tool: "xclip", package: "xclip") }
        throw ClipboardApp.Error.noGraphicalSession
    }

    /// The clipboard's text; empty when nothing is on it.
    func read() throws -> String {
        let result = try run(readCommand, input: nil)
        if result.status != 0 {
            // xclip says "target … not available", wl-paste "Nothing is copied" or "No selection".
            let empty = ["not available", "Nothing is copied", "No selection"].contains { result.error.contains($0) }
            if empty { return "" }
            throw failure(readCommand, result)
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// Puts text on the clipboard, and returns once the clipboard gives it back (up to 2 seconds
    /// by the tool's clock, looking again every 20 ms of it).
    ///
    /// `xclip -i` and `wl-copy` hand the text to a background process that takes the selection; on
    /// a busy machine that can happen after the command has exited, and a read at once would still
    /// get the text before. Waiting for the text makes a read right after a write see it.
    func write(_ text: String) throws {
        let result = try run(writeCommand, input: Data(text.utf8))
        if result.status != 0 { throw failure(writeCommand, result) }
        let deadline = clock.now().adding(.seconds(2))
        while (try? read()) != text, clock.now() < deadline { clock.pause(for: .milliseconds(20)) }
    }

    private func failure(_ command: [String], _ result: (status: Int32, output: Data, error: String)) -> ClipboardApp.Error {
        let lines = result.error.split(separator: "\n").suffix(3).joined(separator: "\n")
        return .failed(command: Self.display(command), status: result.status, message: lines.isEmpty ? "no message" : lines)
    }

    private static func display(_ command: [String]) -> String {
        ([URL(fileURLWithPath: command[0]).lastPathComponent] + command.dropFirst()).joined(separator: " ")
    }

    /// Runs a command with its output and errors in files, not pipes, and waits for it to
    /// exit (``ExitWait``) for up to ``timeout`` seconds by the tool's clock.
    ///
    /// `xclip -i` and `wl-copy` leave a child in the background that serves the clipboard and
    /// keeps every descriptor it inherited: a pipe would never reach its end, and Foundation's
    /// `Process`, which learns of an exit when a socket the child inherits closes, would never
    /// see the command end. So the command is spawned with only standard input, output and
    /// error open, and default signal handling.
    private func run(_ command: [String], input: Data?) throws -> (status: Int32, output: Data, error: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-clipboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputPath = folder.appendingPathComponent("output").path
        let errorPath = folder.appendingPathComponent("error").path
        let inputPath = folder.appendingPathComponent("input").path
        guard FileManager.default.createFile(atPath: inputPath, contents: input ?? Data()) else {
            throw ClipboardApp.Error.cannotStart(command: Self.display(command), reason: "cannot write its input to \(inputPath)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        SpawnSetup.standardFiles(&actions, input: inputPath, output: outputPath, error: errorPath)
        SpawnSetup.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in variables { free(variable) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables)
        guard spawned == 0 else {
            throw ClipboardApp.Error.cannotStart(command: Self.display(command), reason: String(cString: strerror(spawned)))
        }
        let deadline = clock.now().adding(.seconds(Self.timeout))
        let exited: Int32?
        do {
            exited = try ExitWait.status(of: pid, until: deadline, clock: clock)
        } catch {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            throw ClipboardApp.Error.cannotStart(command: Self.display(command), reason: "no pipe to wait with")
        }
        guard let status = exited else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            throw ClipboardApp.Error.timedOut(command: Self.display(command), seconds: Self.timeout)
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (
            exitStatus, (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(),
            String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(), as: UTF8.self)
        )
    }
}

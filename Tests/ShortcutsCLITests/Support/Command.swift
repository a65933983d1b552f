import BuiltInApps
import Clockwork
import Foundation
import IntentKit
import JournalApp
import LibraryApp
import ShortcutsCLI
import ShortcutsTestSupport
import TagsApp

/// A `shortcuts` command run in this process, as argument-parser tests its commands: the
/// same parsing, commands and error reports as the binary, with the standard output and error
/// captured, and the clock the test gives. Many run at once, each with its own output.
///
/// ```swift
/// let next = await Command.run(["cron", "next", "0 9 * * 1-5", "--from", "2026-03-06T00:00:00Z"])
/// #expect(next.status == 0)
/// #expect(next.output.hasPrefix("2026-03-06T09:00:00"))
/// ```
///
/// What needs a process of its own (signals, exit codes of a killed run, the binary copied
/// alone, a daemon across `kill -9`) stays with the end-to-end tests, which start the binary.
struct Command: Sendable {
    /// The exit status.
    var status: Int32
    /// The standard output.
    var output: String
    /// The standard error.
    var error: String

    /// The apps of the `shortcuts` binary.
    static let apps = BuiltInApps.all + [LibraryApp.app, TagsApp.app, JournalApp.app]

    /// Runs a command line (without the command's name) on a clock, by default a manual one
    /// standing at 2027-01-15 08:00:00 UTC, with the process's environment changed by
    /// `environment` (a `nil` value removes a variable).
    static func run(
        _ arguments: [String], clock: any EngineClock = ManualClock(), environment changes: [String: String?] = [:]
    ) async -> Command {
        let captured = Captured()
        let output = CommandOutput(
            printed: { captured.append(output: Data($0.utf8)) }, written: { captured.append(output: $0) },
            errors: { captured.append(error: $0) })
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        for (name, value) in changes { environment[name] = value }
        let status = await ProcessEnvironment.$current.withValue(environment) {
            await TaskClock.$current.withValue(clock) {
                await CommandOutput.$current.withValue(output) {
                    await ShortcutsTool.run(arguments, apps: apps)
                }
            }
        }
        return Command(status: status, output: captured.output, error: captured.error)
    }

    /// The output read as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed])
    }
}

/// What a command printed, appended from any task.
private final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData = Data()
    private var errorData = Data()

    func append(output data: Data) { lock.withLock { outputData.append(data) } }
    func append(error data: Data) { lock.withLock { errorData.append(data) } }

    var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
    var error: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }
}

/// The `shortcuts` command line in this process with a home of its own, as
/// ``ShortcutsBinary`` starts the binary with one: the same calls, run in process.
///
/// ```swift
/// let shortcuts = try InProcessShortcuts()
/// let listed = await shortcuts.run(["list", "intents", "--json"])
/// ```
struct InProcessShortcuts: Sendable {
    /// The `SHORTCUTS_HOME` of every command run.
    let home: URL
    /// The clock every command runs on.
    let clock: any EngineClock

    init(clock: any EngineClock = ManualClock()) throws {
        home = try TemporaryFolder.make(prefix: "shortcuts-home")
        self.clock = clock
    }

    /// Runs a command line with this home.
    func run(_ arguments: [String], environment changes: [String: String?] = [:]) async -> Command {
        await Command.run(arguments, clock: clock, environment: ["SHORTCUTS_HOME": home.path].merging(changes) { $1 })
    }
}

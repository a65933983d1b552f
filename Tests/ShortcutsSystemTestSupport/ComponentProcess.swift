import Foundation
import ShortcutsTestSupport

/// A system component a test starts in the background (a bus daemon, an X server) that says it
/// is ready by printing one line, and is killed when stopped or released.
///
/// ```swift
/// let daemon = try ComponentProcess(executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--print-address", "--nofork"])
/// print(daemon.firstLine)   // unix:path=/tmp/dbus-…
/// ```
public final class ComponentProcess: Sendable {
    /// The line the component printed when it was ready.
    public let firstLine: String
    private let program: BackgroundProgram

    /// Starts the program and waits, woken by what it writes, for the first line it prints.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    /// - Throws: ``ComponentError`` when it cannot start or ends before it prints a line.
    public init(executable: String, arguments: [String]) throws {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        do {
            program = try BackgroundProgram(executable: executable, arguments: arguments)
            let output = try program.waitForOutputBlocking("a first line", in: .output) { $0.contains("\n") }
            firstLine = String(output.prefix { $0 != "\n" })
        } catch {
            throw ComponentError(message: "\(name) did not start: \(error)")
        }
        guard !firstLine.isEmpty else { throw ComponentError(message: "\(name) printed an empty first line") }
    }

    /// Ends the program and waits for it.
    public func stop() {
        // SIGKILL: a program started from the test runner may inherit a mask that blocks SIGTERM.
        program.signal(SIGKILL)
        _ = program.waitBlocking()
    }

    deinit {
        stop()
    }
}

/// A system component a test starts (a bus, a display) did not start or answer.
public struct ComponentError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

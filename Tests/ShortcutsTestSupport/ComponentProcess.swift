import Foundation

/// A system component a test starts in the background (a bus daemon, an X server) that says it
/// is ready by printing one line, and is killed when stopped or released.
///
/// ```swift
/// let daemon = try ComponentProcess(executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--print-address", "--nofork"], readyWithin: 5)
/// print(daemon.firstLine)   // unix:path=/tmp/dbus-…
/// ```
public final class ComponentProcess: @unchecked Sendable {
    /// The line the component printed when it was ready.
    public let firstLine: String
    private let process = Process()

    /// Starts the program and reads the first line it prints.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    ///   - seconds: How long it may take to print its first line.
    /// - Throws: ``ComponentError`` when it cannot start or prints no line in time.
    public init(executable: String, arguments: [String], readyWithin seconds: Int) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard let line = output.firstLine(timeout: seconds), !line.isEmpty else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let name = URL(fileURLWithPath: executable).lastPathComponent
            throw ComponentError(message: "\(name) printed nothing within \(seconds) seconds")
        }
        firstLine = line
    }

    /// Ends the program and waits for it.
    public func stop() {
        // SIGKILL: a program started from the test runner may inherit a mask that blocks SIGTERM.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
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

import Foundation

/// A session bus of the test's own: `dbus-daemon --session --print-address --nofork`, ended
/// when the value is stopped or released.
///
/// ```swift
/// let bus = try PrivateSessionBus()
/// let run = try shortcuts.run(["run", "notify.yaml"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
/// ```
public final class PrivateSessionBus: @unchecked Sendable {
    /// The bus daemon's executable.
    public static let executable = "/usr/bin/dbus-daemon"

    /// The address clients connect to, as `DBUS_SESSION_BUS_ADDRESS` gives it.
    public let address: String
    private let process = Process()

    /// Starts the daemon and reads the address it prints.
    ///
    /// - Throws: When the daemon cannot start or prints no address within 5 seconds.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--session", "--print-address", "--nofork"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard let line = output.firstLine(timeout: 5), !line.isEmpty else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ComponentError(message: "dbus-daemon printed no address within 5 seconds")
        }
        address = line
    }

    /// Ends the daemon and waits for it.
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

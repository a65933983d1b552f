import Foundation

/// An X display of the test's own: `Xvfb` on the first free display number, ended when the
/// value is stopped or released.
///
/// ```swift
/// let display = try VirtualDisplay()
/// let run = try shortcuts.run(["run", "copy.yaml"], environment: ["DISPLAY": display.name])
/// ```
public final class VirtualDisplay: @unchecked Sendable {
    /// The X server's executable.
    public static let executable = "/usr/bin/Xvfb"

    /// The display's name for `DISPLAY`, such as `:1`.
    public let name: String
    private let process = Process()

    /// Starts the server; it writes the display number it chose (`-displayfd 1`) when it is ready.
    ///
    /// - Throws: When Xvfb cannot start or is not ready within 10 seconds.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard let number = output.firstLine(timeout: 10).flatMap({ Int($0) }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ComponentError(message: "Xvfb did not say its display number within 10 seconds")
        }
        name = ":\(number)"
    }

    /// Ends the server and waits for it.
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

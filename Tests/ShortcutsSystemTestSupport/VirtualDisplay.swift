import Foundation
import ShortcutsTestSupport

/// An X display of the test's own: `Xvfb` on the first free display number, ended when the
/// value is stopped or released.
///
/// ```swift
/// let display = try VirtualDisplay()
/// let run = try await shortcuts.run(["run", "copy.yaml"], environment: ["DISPLAY": display.name])
/// ```
public final class VirtualDisplay: Sendable {
    /// The X server's executable.
    public static let executable = "/usr/bin/Xvfb"

    /// The display's name for `DISPLAY`, such as `:1`.
    public let name: String
    private let server: ComponentProcess

    /// Starts the server; it writes the display number it chose (`-displayfd 1`) when it is ready.
    ///
    /// - Throws: When Xvfb cannot start or is not ready within 10 seconds.
    public init() throws {
        server = try ComponentProcess(
            executable: Self.executable, arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"])
        guard let number = Int(server.firstLine) else {
            server.stop()
            throw ComponentError(message: "Xvfb said '\(server.firstLine)' instead of its display number")
        }
        name = ":\(number)"
    }

    /// Ends the server and waits for it.
    public func stop() {
        server.stop()
    }
}

import Foundation
import ShortcutsTestSupport

/// A session bus of the test's own: `dbus-daemon --session --print-address --nofork`, ended
/// when the value is stopped or released.
///
/// ```swift
/// let bus = try PrivateSessionBus()
/// let run = try await shortcuts.run(["run", "notify.yaml"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
/// ```
public final class PrivateSessionBus: Sendable {
    /// The bus daemon's executable.
    public static let executable = "/usr/bin/dbus-daemon"

    /// The address clients connect to, as `DBUS_SESSION_BUS_ADDRESS` gives it.
    public var address: String { daemon.firstLine }
    private let daemon: ComponentProcess

    /// Starts the daemon and reads the address it prints.
    ///
    /// - Throws: When the daemon cannot start or prints no address within 5 seconds.
    public init() throws {
        daemon = try ComponentProcess(executable: Self.executable, arguments: ["--session", "--print-address", "--nofork"])
    }

    /// Ends the daemon and waits for it.
    public func stop() {
        daemon.stop()
    }
}

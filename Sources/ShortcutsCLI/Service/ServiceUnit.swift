import Clockwork
import Foundation
import IntentKit
import WorkflowKit

/// The systemd unit that runs `shortcuts daemon` as a service: in the user's session (`--user`,
/// `~/.config/systemd/user/shortcuts.service`, where notifications and the clipboard reach the
/// desktop) or for the whole machine (`--system`, `/etc/systemd/system/shortcuts.service`, as
/// a user of its own).
///
/// ```swift
/// let unit = ServiceUnit(scope: .user, executable: "/usr/bin/shortcuts", workflows: "/home/ada/Workflows")
/// print(unit.text)   // [Unit] Description=Shortcuts automations …
/// ```
struct ServiceUnit: Equatable {
    enum Scope: String {
        case user, system
    }

    static let name = "shortcuts.service"

    var scope: Scope
    /// The absolute path of the `shortcuts` binary.
    var executable: String
    /// The absolute path of the folder of workflow files.
    var workflows: String
    /// `SHORTCUTS_HOME`, when the service keeps its state elsewhere than the default.
    var home: String?
    /// The grace period of running workflows at a stop, as `--grace` takes it.
    var grace = "30s"
    /// The user a system service runs as.
    var user = "shortcuts"

    /// Where the unit file goes.
    static func path(for scope: Scope, environment: [String: String]) -> String {
        switch scope {
        case .system: return "/etc/systemd/system/" + name
        case .user:
            let config =
                environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? HomeFolder.path(environment: environment) + "/.config"
            return config + "/systemd/user/" + name
        }
    }

    /// The unit file's text.
    var text: String {
        var service = [
            "Type=notify",
            // The session bus of the user's desktop, for Notify.Show; %t is the runtime folder.
            scope == .user ? "Environment=DBUS_SESSION_BUS_ADDRESS=unix:path=%t/bus" : "User=\(user)"
        ]
        if let home { service.append("Environment=SHORTCUTS_HOME=\(Self.quoted(home))") }
        service += [
            "WorkingDirectory=\(Self.quoted((workflows as NSString).deletingLastPathComponent))",
            "ExecStart=\(Self.quoted(executable)) daemon --workflows \(Self.quoted(workflows)) --grace \(grace)",
            "ExecReload=/bin/kill -HUP $MAINPID",
            "KillSignal=SIGTERM",
            // Longer than the grace period, so that systemd does not kill runs being recorded.
            "TimeoutStopSec=\(Self.stopTimeout(grace: grace))",
            "Restart=on-failure",
            "RestartSec=5s"
        ]
        return """
            # Written by `shortcuts service install --\(scope.rawValue)`; `shortcuts service uninstall --\(scope.rawValue)` removes it.
            [Unit]
            Description=Shortcuts automations of \(workflows)
            \(scope == .system ? "Wants=network-online.target\nAfter=network-online.target" : "After=default.target")

            [Service]
            \(service.joined(separator: "\n"))

            [Install]
            WantedBy=\(scope == .user ? "default.target" : "multi-user.target")

            """
    }

    /// A path as systemd reads it: in double quotes when it holds a space, with `%` doubled.
    static func quoted(_ path: String) -> String {
        let escaped = path.replacingOccurrences(of: "%", with: "%%")
        return escaped.contains(" ") ? "\"\(escaped.replacingOccurrences(of: "\"", with: "\\\""))\"" : escaped
    }

    /// `--grace` and 15 seconds more, in seconds.
    static func stopTimeout(grace: String) -> Int {
        let seconds = DurationSyntax.parse(grace).map { Int($0.timeInterval.rounded(.up)) } ?? 30
        return seconds + 15
    }
}

import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Run the daemon as a systemd service: in your session (--user, the default) or for the machine (--system).",
        discussion: """
            A user service runs while you are logged in, with your desktop's notifications and clipboard; \
            `loginctl enable-linger $USER` keeps it running after you log out and starts it at boot.
            Examples:
              shortcuts service install                 # Workflows/ of this folder, in your session
              shortcuts service install --workflows ~/chores --print
              shortcuts service status
              shortcuts service logs -f
              shortcuts service uninstall
            """,
        subcommands: [Install.self, Uninstall.self, Status.self, Logs.self])

    /// `--user` or `--system`.
    struct ScopeOptions: ParsableArguments {
        @Flag(name: .long, help: "The service of your session (the default): systemctl --user.")
        var user = false

        @Flag(name: .long, help: "The machine's service, run as the user `--as` names: needs root.")
        var system = false

        func validate() throws {
            if user && system { throw ValidationError("give --user or --system, not both") }
        }

        var scope: ServiceUnit.Scope { system ? .system : .user }

        /// `systemctl` and `journalctl`'s flag for the scope.
        var managerFlags: [String] { system ? [] : ["--user"] }
    }

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the unit, then enable and start it (systemctl enable --now).")

        @OptionGroup var scope: ScopeOptions

        @Option(name: .long, help: ArgumentHelp("The folder of workflow files the daemon runs.", valueName: "dir"))
        var workflows = "Workflows"

        @Option(name: .long, help: ArgumentHelp("The grace period of running workflows when the service stops.", valueName: "duration"))
        var grace = "30s"

        @Option(name: .long, help: ArgumentHelp("The shortcuts binary the service runs (this one by default).", valueName: "path"))
        var executable: String?

        @Option(name: .customLong("as"), help: ArgumentHelp("With --system, the user the service runs as.", valueName: "user"))
        var runAs = "shortcuts"

        @Flag(name: .long, help: "Print the unit and write nothing.")
        var print = false

        @Flag(name: .long, help: "Write the unit without enabling or starting it.")
        var noStart = false

        func validate() throws {
            guard DurationSyntax.parse(grace) != nil else { throw ValidationError("--grace '\(grace)' is not a duration, such as 30s or 2m") }
        }

        func run() async throws {
            let environment = ProcessEnvironment.current
            let folder = URL(fileURLWithPath: HomeFolder.expandingTilde(workflows)).standardizedFileURL.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw CommandLineError(
                    "no folder of workflows at \(folder)",
                    help: ["give it with --workflows DIR, or start one with `\(Installation.shared.commandName) new NAME`"])
            }
            let binary = executable.map { URL(fileURLWithPath: HomeFolder.expandingTilde($0)).standardizedFileURL.path } ?? Self.thisBinary()
            let home = environment["SHORTCUTS_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: HomeFolder.expandingTilde($0)).path }
            let unit = ServiceUnit(scope: scope.scope, executable: binary, workflows: folder, home: home, grace: grace, user: runAs)
            if print {
                CommandOutput.current.print(unit.text)
                return
            }
            let path = ServiceUnit.path(for: scope.scope, environment: environment)
            if scope.scope == .system && geteuid() != 0 {
                throw CommandLineError(
                    "a system service is written to \(path), which needs root",
                    help: ["run it with sudo, or install a user service with --user"])
            }
            do {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(unit.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandLineError(error)
            }
            let manager = (["systemctl"] + scope.managerFlags).joined(separator: " ")
            if noStart {
                CommandOutput.current.print(
                    "Wrote \(path).\nStart it with `\(manager) daemon-reload && \(manager) enable --now \(ServiceUnit.name)`.\n")
                return
            }
            for arguments in [["daemon-reload"], ["enable", "--now", ServiceUnit.name]] {
                let result = SystemTool.run("systemctl", scope.managerFlags + arguments)
                guard result.status == 0 else {
                    throw CommandLineError(
                        "wrote \(path), but `\(manager) \(arguments.joined(separator: " "))` failed: \(result.error)",
                        help: [
                            scope.scope == .user
                                ? "in your desktop session (where `systemctl --user` reaches your user manager) run `\(manager) enable --now \(ServiceUnit.name)`"
                                : "check `\(manager) status \(ServiceUnit.name)`"
                        ])
                }
            }
            var lines = ["Installed \(path) and started it: it runs the automations of \(folder)."]
            if scope.scope == .user, let user = environment["USER"], !FileManager.default.fileExists(atPath: "/var/lib/systemd/linger/\(user)") {
                lines.append(
                    "It runs while you are logged in; `loginctl enable-linger \(user)` keeps it running after you log out, and starts it at boot.")
            }
            lines.append("`\(Installation.shared.commandName) service logs` shows its log, `\(Installation.shared.commandName) runs list` its runs.")
            CommandOutput.current.print(lines.joined(separator: "\n") + "\n")
        }

        /// The running binary's absolute path.
        static func thisBinary() -> String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        }
    }

    struct Uninstall: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop and disable the service, and remove its unit.")

        @OptionGroup var scope: ScopeOptions

        func run() async throws {
            let path = ServiceUnit.path(for: scope.scope, environment: ProcessEnvironment.current)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandLineError("no service is installed at \(path)")
            }
            let disabled = SystemTool.run("systemctl", scope.managerFlags + ["disable", "--now", ServiceUnit.name])
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw CommandLineError(error)
            }
            _ = SystemTool.run("systemctl", scope.managerFlags + ["daemon-reload"])
            var lines = ["Removed \(path)."]
            if disabled.status != 0 {
                lines.append("note: systemctl could not stop it (\(disabled.error)); a running daemon stops at its next restart.")
            }
            CommandOutput.current.print(lines.joined(separator: "\n") + "\n")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the service's state (systemctl status).")

        @OptionGroup var scope: ScopeOptions

        func run() async throws {
            try SystemTool.replaceProcess(with: "systemctl", scope.managerFlags + ["status", "--no-pager", ServiceUnit.name])
        }
    }

    struct Logs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the service's log (journalctl).")

        @OptionGroup var scope: ScopeOptions

        @Flag(name: .shortAndLong, help: "Keep printing new lines.")
        var follow = false

        @Option(name: .shortAndLong, help: "How many of the last lines.")
        var lines = 100

        func run() async throws {
            let unit = scope.scope == .user ? ["--user-unit", ServiceUnit.name] : ["--unit", ServiceUnit.name]
            try SystemTool.replaceProcess(with: "journalctl", unit + ["--no-pager", "--lines", String(lines)] + (follow ? ["--follow"] : []))
        }
    }
}

/// The system's own tools (`systemctl`, `journalctl`), found on `PATH`.
enum SystemTool {
    /// Runs a tool to its end: its exit status, and its standard error's last line.
    static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, "\(error)")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let last = text.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
        return (process.terminationStatus, last)
    }

    /// Becomes the tool, which writes to this terminal itself (a pager, `--follow`).
    static func replaceProcess(with tool: String, _ arguments: [String]) throws -> Never {
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        execvp(tool, argv)
        throw CommandLineError("cannot run \(tool): \(String(cString: strerror(errno)))", help: ["is systemd installed?"])
    }
}

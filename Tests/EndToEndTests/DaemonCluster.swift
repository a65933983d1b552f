import Foundation

/// `shortcuts daemon` processes as if each ran on its own machine: each has its own
/// `$SHORTCUTS_HOME` and its own copy of the same workflows folder, and all share one database
/// through `SHORTCUTS_DATABASE_URL`.
///
/// ```swift
/// let cluster = try DaemonCluster(farm: farm, databaseURL: url, machines: ["a", "b", "c"])
/// try cluster.startAll()
/// defer { cluster.killAll() }
/// ```
final class DaemonCluster: @unchecked Sendable {
    /// One machine: its home, its copy of the folder, and its daemon while one runs.
    final class Machine: @unchecked Sendable {
        let name: String
        let shortcuts: ShortcutsBinary
        let workflows: URL
        var daemon: DaemonProcess?

        init(name: String, shortcuts: ShortcutsBinary, workflows: URL) {
            self.name = name
            self.shortcuts = shortcuts
            self.workflows = workflows
        }
    }

    let farm: AutomationFarm
    let databaseURL: String
    let machines: [Machine]
    /// Arguments added to every `shortcuts daemon` command.
    let arguments: [String]

    init(farm: AutomationFarm, databaseURL: String, machines names: [String] = ["a", "b", "c"], arguments: [String] = []) throws {
        self.farm = farm
        self.databaseURL = databaseURL
        self.arguments = arguments
        machines = try names.map { name in
            let shortcuts = try ShortcutsBinary()
            return Machine(name: name, shortcuts: shortcuts, workflows: try farm.deploy(to: shortcuts.home))
        }
    }

    subscript(name: String) -> Machine {
        guard let machine = machines.first(where: { $0.name == name }) else { preconditionFailure("no machine \(name)") }
        return machine
    }

    /// Starts the daemon of one machine.
    @discardableResult
    func start(_ machine: Machine) throws -> DaemonProcess {
        let daemon = try DaemonProcess.start(
            machine.shortcuts, folder: machine.workflows.path, grace: "3s", arguments: arguments,
            environment: [
                "SHORTCUTS_DATABASE_URL": databaseURL, "EFFECTS": farm.effectsFolder.path, "MACHINE": machine.name
            ])
        machine.daemon = daemon
        return daemon
    }

    /// Starts every machine's daemon.
    func startAll() throws {
        for machine in machines { try start(machine) }
    }

    /// Sends SIGTERM to every running daemon at once, then waits for each; their exit statuses by machine.
    func stopAll() -> [String: Int32] {
        let running = machines.compactMap { machine in machine.daemon.map { (machine.name, $0) } }.filter { $0.1.isRunning }
        for (_, daemon) in running {
            _ = kill(daemon.pid, SIGCONT)
            daemon.terminate()
        }
        var statuses: [String: Int32] = [:]
        for (name, daemon) in running { statuses[name] = daemon.waitForExit() }
        return statuses
    }

    /// Kills whatever still runs (after a failed expectation), without waiting for grace periods.
    func killAll() {
        for machine in machines {
            guard let daemon = machine.daemon, daemon.isRunning else { continue }
            _ = kill(daemon.pid, SIGCONT)
            daemon.kill(SIGKILL)
        }
    }

    /// Every daemon's log, headed by its machine's name, for failure messages.
    var logs: String {
        machines.map { machine in
            let log = machine.daemon?.log ?? ""
            // A crash report's first lines name the error; the rest is threads' stacks.
            let crash =
                log.range(of: "*** ").map { start in
                    let lines = log[start.lowerBound...].split(separator: "\n").filter { line in
                        ["***", "crashed", "Fatal error", "/Sources/"].contains { line.contains($0) }
                    }
                    return "crash:\n\(lines.prefix(40).joined(separator: "\n"))\n…\n"
                } ?? ""
            return "--- \(machine.name) (pid \(machine.daemon?.pid ?? 0)):\n\(crash)\(log.suffix(3000))"
        }
        .joined(separator: "\n")
    }

    /// Removes the machines' homes and the farm.
    func remove() {
        for machine in machines { try? FileManager.default.removeItem(at: machine.shortcuts.home) }
        farm.remove()
    }
}

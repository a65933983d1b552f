import Foundation
import ShortcutsTestSupport
import Testing

/// `shortcuts service install`: the unit it writes for the user's session, checked by systemd's
/// own `systemd-analyze verify`. Enabling and starting it needs a user manager, which a test
/// must not touch, so these cases print or write the unit only (`--print`, `--no-start`).
@Suite("service")
struct ServiceCommandTests {
    static let hasSystemd = SystemComponents.available("/usr/bin/systemd-analyze")

    @Test("--print shows the user unit: the daemon of the folder, its home, and a stop timeout past its grace")
    func printedUnit() async throws {
        let shortcuts = try InProcessShortcuts()
        let folder = try TemporaryFolder.make(prefix: "service")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Workflows"), withIntermediateDirectories: true)
        let workflows = folder.appendingPathComponent("Workflows").path
        let printed = await shortcuts.run([
            "service", "install", "--print", "--workflows", workflows, "--executable", "/usr/bin/shortcuts", "--grace", "1m"
        ])
        #expect(printed.status == 0, "\(printed.error)")
        let lines = Set(printed.output.split(separator: "\n").map(String.init))
        #expect(
            lines.isSuperset(of: [
                "Type=notify", "ExecStart=/usr/bin/shortcuts daemon --workflows \(workflows) --grace 1m", "TimeoutStopSec=75",
                "Environment=SHORTCUTS_HOME=\(shortcuts.home.path)", "Environment=DBUS_SESSION_BUS_ADDRESS=unix:path=%t/bus",
                "WorkingDirectory=\(folder.path)", "WantedBy=default.target"
            ]), "\(printed.output)")
        let missing = await shortcuts.run(["service", "install", "--print", "--workflows", folder.appendingPathComponent("nowhere").path])
        #expect(missing.status == 1 && missing.error.contains("no folder of workflows at"), "\(missing.error)")
        let system = await shortcuts.run(["service", "install", "--system", "--as", "ada", "--print", "--workflows", workflows])
        #expect(system.output.contains("User=ada\n") && system.output.contains("WantedBy=multi-user.target"), "\(system.output)")
    }

    @Test(
        "--no-start writes the unit where systemctl --user reads it, and systemd-analyze verify finds nothing to say",
        .enabled(if: hasSystemd, "needs systemd-analyze (apt install systemd)"))
    func writtenUnitVerifies() async throws {
        let shortcuts = try InProcessShortcuts()
        let folder = try TemporaryFolder.make(prefix: "service")
        let config = folder.appendingPathComponent("config")
        let runtime = folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("My Workflows"), withIntermediateDirectories: true)
        let written = await shortcuts.run(
            ["service", "install", "--no-start", "--workflows", folder.appendingPathComponent("My Workflows").path, "--executable", "/usr/bin/env"],
            environment: ["XDG_CONFIG_HOME": config.path])
        #expect(written.status == 0, "\(written.error)")
        let unit = config.appendingPathComponent("systemd/user/shortcuts.service")
        #expect(
            written.output.hasPrefix(
                "Wrote \(unit.path).\nStart it with `systemctl --user daemon-reload && systemctl --user enable --now shortcuts.service`."))
        let verify = Process()
        verify.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        verify.arguments = ["--user", "verify", unit.path]
        verify.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 }
        let errors = Pipe()
        verify.standardError = errors
        try verify.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        verify.waitUntilExit()
        #expect(verify.terminationStatus == 0 && said.isEmpty, "\(said)")
    }
}

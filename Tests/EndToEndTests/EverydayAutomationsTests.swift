import Foundation
import ShortcutsSystemTestSupport
import Testing

/// The three everyday automations a new Linux user writes first — a morning digest from a URL,
/// a nightly backup that drops old copies, an alert when a disk is nearly full — written in YAML
/// from the built-in actions alone: scheduled, validated and run, their notifications delivered
/// to a notification server on a private session bus.
@Suite("Everyday automations", .endToEnd)
struct EverydayAutomationsTests {
    static let hasBus = SystemComponents.available(PrivateSessionBus.executable)

    @Test func theThreeAreScheduledAutomations() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        for file in ["morning-digest.yaml", "nightly-backup.yaml", "disk-alert.yaml"] {
            let validated = try await shortcuts.run(["validate", "Workflows/" + file])
            #expect(validated.status == 0, "\(validated.error)")
        }
        let listed = try await shortcuts.run(["automations", "list", "--workflows", "Workflows"])
        #expect(listed.status == 0, "\(listed.error)")
        let rows = listed.output.split(separator: "\n").map { $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) } }
        for (name, file, schedule) in [
            ("Morning digest", "Workflows/morning-digest.yaml", "0 8 * * MON-FRI"), ("Nightly backup", "Workflows/nightly-backup.yaml", "30 2 * * *"),
            ("Disk alert", "Workflows/disk-alert.yaml", "*/10 * * * *")
        ] {
            #expect(rows.contains { Array($0.prefix(3)) == [name, file, schedule] }, "\(listed.output)")
        }
    }

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func theDigestAndTheDiskAlertNotifyTheDesktop() async throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let listener = try NotificationListener(address: bus.address)
        defer { listener.stop() }
        let server = try LocalHTTPServer(routes: [
            "/releases.json": { _ in .json(#"[{"name": "Swift 6.2.1", "html_url": "https://example.org/6.2.1"}]"#) }
        ])
        defer { server.stop() }
        let folder = try TemporaryFolder.make(prefix: "shortcuts-digest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }

        let digest = try await shortcuts.run(
            ["run", "Workflows/morning-digest.yaml", "--input", "url=\(server.url("/releases.json"))", "--input", "folder=\(folder.path)"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(digest.status == 0, "\(digest.error)")
        let written = try #require(digest.output.split(separator: "\n").last.map(String.init))
        let summary = try String(contentsOfFile: written, encoding: .utf8)
        #expect(summary.hasPrefix("# Digest of "))
        #expect(summary.contains("1. Swift 6.2.1 (https://example.org/6.2.1)"))

        let alert = try await shortcuts.run(
            ["run", "Workflows/disk-alert.yaml", "--input", "path=\(folder.path)", "--input", "threshold=0"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(alert.status == 0, "\(alert.error)")
        let received = listener.wait(forCount: 2)
        #expect(received.map(\.title) == ["Morning digest", "Disk nearly full"])
        #expect(received.first?.body == "Releases listed: 1, in \(URL(fileURLWithPath: written).lastPathComponent)")
        #expect(received.last?.urgency == 2)
        #expect(received.last?.body.contains("% of \(folder.path) is used on ") == true)
    }

    @Test func theBackupKeepsAWeekOfCopiesAndRunsAgainTheNextNight() async throws {
        let folder = try TemporaryFolder.make(prefix: "shortcuts-backup")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TemporaryFolder.write(["Documents/notes.txt": "today's notes", "Documents/plans/trip.md": "Lisbon"], in: folder)
        let backups = folder.appendingPathComponent("Backups")
        for (name, days) in [("backup-2026-01-01-023000", 30.0), ("backup-2026-01-20-023000", 8.0), ("backup-2026-01-25-023000", 3.0)] {
            try TemporaryFolder.write(["Backups/\(name)/notes.txt": "old notes"], in: folder)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -days * 86_400)], ofItemAtPath: backups.appendingPathComponent(name).path)
        }
        try TemporaryFolder.write(["Backups/unrelated.txt": "not a backup"], in: folder)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60 * 86_400)], ofItemAtPath: backups.appendingPathComponent("unrelated.txt").path)
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }

        let run = try await shortcuts.run([
            "run", "Workflows/nightly-backup.yaml", "--input", "source=\(folder.path)/Documents", "--input", "backups=\(backups.path)"
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Backups older than 7 days deleted: 2."))
        let kept = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()
        #expect(kept.count == 3)
        #expect(kept.contains("backup-2026-01-25-023000") && kept.contains("unrelated.txt"))
        let copy = try #require(kept.first { $0.hasPrefix("backup-") && $0 != "backup-2026-01-25-023000" })
        #expect(try String(contentsOf: backups.appendingPathComponent(copy + "/plans/trip.md"), encoding: .utf8) == "Lisbon")
    }
}

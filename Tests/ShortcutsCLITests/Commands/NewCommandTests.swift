import Foundation
import ShortcutsTestSupport
import Testing

/// `shortcuts new`: every template is written for a name, validates, and runs as it is on real
/// files, in process on a manual clock.
@Suite("new")
struct NewCommandTests {
    /// The command line with a home, a `$HOME` and a trash of its own, and no desktop session.
    private struct Chores {
        let clock = ManualClock()
        let shortcuts: InProcessShortcuts
        let folder: URL
        var environment: [String: String?] {
            [
                "HOME": folder.appendingPathComponent("home").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "DBUS_SESSION_BUS_ADDRESS": nil
            ]
        }

        init() throws {
            shortcuts = try InProcessShortcuts(clock: clock)
            folder = try TemporaryFolder.make(prefix: "new-command")
        }

        func run(_ arguments: [String]) async -> Command { await shortcuts.run(arguments, environment: environment) }

        /// Writes a template for a name and checks it validates; returns its path.
        func new(_ name: String, from template: String) async throws -> String {
            let path = folder.appendingPathComponent("Workflows/\(name).yaml").path
            let written = await run(["new", path, "--from", template])
            #expect(written.status == 0, "\(written.error)")
            #expect(written.output.hasPrefix("Wrote \(path) from the \(template) template."))
            let validated = await run(["validate", path])
            #expect(validated.status == 0, "\(template): \(validated.output)\(validated.error)")
            return path
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    @Test("--list names every template with what it does, blank first")
    func list() async throws {
        let chores = try Chores()
        let listed = await chores.run(["new", "--list", "--json"])
        let templates = try #require(try listed.json() as? [[String: String]])
        #expect(templates.map { $0["name"] } == ["blank", "backup", "cleanup", "report", "schedule", "watch-folder", "webhook"])
        #expect(templates.allSatisfy { !($0["description"] ?? "").isEmpty })
    }

    @Test("blank, schedule and webhook run as they are written")
    func simpleTemplates() async throws {
        let chores = try Chores()
        let blank = await chores.run(["run", try await chores.new("hello", from: "blank")])
        #expect(blank.status == 0 && blank.output.contains("Hello, world!"), "\(blank.error)")
        let schedule = try await chores.new("morning", from: "schedule")
        #expect(try String(contentsOfFile: schedule, encoding: .utf8).contains("name: Morning\n"))
        let morning = await chores.run(["run", schedule])
        #expect(morning.status == 0, "\(morning.error)")
        #expect(morning.output.contains("Morning — Good morning: it is Friday 15 January."), "\(morning.output)")
        let webhook = try await chores.new("deploy-site", from: "webhook")
        #expect(try String(contentsOfFile: webhook, encoding: .utf8).contains("webhook: { name: deploy-site, rate: 10/m }"))
        let inputs = chores.path("inputs.json")
        try Data(#"{"body": {"ref": "main"}, "log": "\#(chores.path("hooks.log"))"}"#.utf8).write(to: URL(fileURLWithPath: inputs))
        let hooked = await chores.run(["run", webhook, "--input-path", inputs])
        #expect(hooked.status == 0, "\(hooked.error)")
        #expect(try String(contentsOfFile: chores.path("hooks.log"), encoding: .utf8).contains(#"{"ref":"main"}"#))
    }

    @Test("watch-folder sorts a file into the folder of its extension")
    func watchFolder() async throws {
        let chores = try Chores()
        try TemporaryFolder.write(["inbox/Report.PDF": "%PDF", "inbox/README": "plain"], in: chores.folder)
        let sort = try await chores.new("sort-inbox", from: "watch-folder")
        for name in ["Report.PDF", "README"] {
            let moved = await chores.run(["run", sort, "--input", "file=" + chores.path("inbox/\(name)")])
            #expect(moved.status == 0, "\(moved.error)")
        }
        #expect(FileManager.default.fileExists(atPath: chores.path("inbox/pdf/Report.PDF")))
        #expect(FileManager.default.fileExists(atPath: chores.path("inbox/other/README")))
    }

    @Test("backup keeps the newest archives, and a failed one leaves none and fails the run")
    func backup() async throws {
        let chores = try Chores()
        try TemporaryFolder.write(["Documents/notes.txt": "notes"], in: chores.folder)
        let backup = try await chores.new("nightly", from: "backup")
        let inputs = ["--input", "source=" + chores.path("Documents"), "--input", "backups=" + chores.path("Backups"), "--input", "keep=2"]
        for _ in 0..<3 {
            let ran = await chores.run(["run", backup] + inputs)
            #expect(ran.status == 0, "\(ran.error)")
            chores.clock.advance(by: .seconds(60))
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: chores.path("Backups")).sorted()
        #expect(kept == ["backup-2027-01-15-080100.tar.gz", "backup-2027-01-15-080200.tar.gz"], "\(kept)")
        let failed = await chores.run(["run", backup, "--input", "source=" + chores.path("nowhere"), "--input", "backups=" + chores.path("Backups")])
        #expect(failed.status == 1)
        #expect(failed.error.contains("error: the backup of \(chores.path("nowhere")) failed"), "\(failed.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chores.path("Backups")).count == 2, "no half-written archive is left")

        // As it is written: ~/Documents into ~/Backups, `~` being $HOME for the program too.
        try TemporaryFolder.write(["home/Documents/notes.txt": "notes"], in: chores.folder)
        let defaults = await chores.run(["run", backup])
        #expect(defaults.status == 0, "\(defaults.error)")
        let archives = try FileManager.default.contentsOfDirectory(atPath: chores.path("home/Backups"))
        #expect(archives.count == 1 && archives[0].hasSuffix(".tar.gz"), "\(archives)")
    }

    @Test("report writes its JSON, and cleanup moves only the old files to the trash")
    func reportAndCleanup() async throws {
        let chores = try Chores()
        try TemporaryFolder.write(
            ["Documents/a.txt": "abc", "Documents/b.txt": "de", "Downloads/old.iso": "o", "Downloads/new.txt": "n"], in: chores.folder)
        let manager = FileManager.default
        try manager.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: chores.path("Documents/a.txt"))
        try manager.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: chores.path("Downloads/old.iso"))
        try manager.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_799_990_000)], ofItemAtPath: chores.path("Downloads/new.txt"))
        let report = try await chores.new("folder-report", from: "report")
        let reported = await chores.run([
            "run", report, "--input", "folder=" + chores.path("Documents"), "--input", "reports=" + chores.path("Reports")
        ])
        #expect(reported.status == 0, "\(reported.error)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: chores.path("Reports/report-2027-01-15.json"))))
        let fields = try #require(json as? [String: Any])
        #expect(fields["files"] as? Int == 2 && fields["bytes"] as? Int == 5 && fields["newest"] as? String == "b.txt", "\(fields)")
        let cleanup = try await chores.new("tidy", from: "cleanup")
        let cleaned = await chores.run(["run", cleanup, "--input", "folder=" + chores.path("Downloads")])
        #expect(cleaned.status == 0, "\(cleaned.error)")
        #expect(try manager.contentsOfDirectory(atPath: chores.path("Downloads")) == ["new.txt"])
        #expect(manager.fileExists(atPath: chores.path("data/Trash/files/old.iso")))
    }

    @Test("A name that exists, an unknown template or a name YAML cannot hold is refused, and nothing is written")
    func refusals() async throws {
        let chores = try Chores()
        let path = try await chores.new("once", from: "blank")
        let again = await chores.run(["new", path, "--from", "backup"])
        #expect(again.status == 1 && again.error.contains("already exists, and is left as it is"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Says hello."))
        let unknown = await chores.run(["new", chores.path("x.yaml"), "--from", "bakup"])
        #expect(unknown.status == 64 && unknown.error.contains("did you mean 'backup'?"), "\(unknown.error)")
        let colon = await chores.run(["new", chores.path("a: b.yaml")])
        #expect(colon.status == 1 && colon.error.contains("cannot be a workflow's name"), "\(colon.error)")
        #expect(!FileManager.default.fileExists(atPath: chores.path("x.yaml")) && !FileManager.default.fileExists(atPath: chores.path("a: b.yaml")))
    }
}

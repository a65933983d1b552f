import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `shortcuts daemon` with an automation that watches a folder: a file dropped there runs it
/// once, listed by `shortcuts runs` with the trigger `file` and the file as its input.
@Suite("File triggers", .serialized, .endToEnd)
struct FileTriggerCommandTests {
    @Test("A file dropped into a watched folder runs its automation once, with the file as input")
    func dropAFile() async throws {
        let shortcuts = try ShortcutsBinary()
        let root = try TemporaryFolder.make(prefix: "shortcuts-file-trigger")
        defer { try? FileManager.default.removeItem(at: root) }
        try TemporaryFolder.write(
            [
                "Workflows/file-drop.yaml": """
                name: File drop
                input:
                  file: File
                  event: String
                automation:
                  watch: { path: ../inbox, pattern: "*.csv", debounce: 300ms }
                steps:
                  - show: "${input.event}: ${input.file}"
                output: "${input.file}"
                """
            ], in: root)
        let inbox = root.appendingPathComponent("inbox")
        let daemon = try DaemonProcess.start(shortcuts, folder: root.appendingPathComponent("Workflows").path, grace: "2s")
        try await daemon.waitForLog("cannot watch \(inbox.path) for File drop: it does not exist")
        try TemporaryFolder.write(["inbox/notes.txt": "not a CSV"], in: root)
        let report = inbox.appendingPathComponent("report.csv")
        try await ShellWriter.write("id,amount\n1,20\n", to: report)

        @Sendable func fileRuns() async throws -> [[String: Any]] {
            let listed = try await shortcuts.run(["runs", "list", "--json", "--trigger", "file"])
            let data = Data(listed.output.utf8)
            return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
        }
        let ran = try await eventually(watching: [.folder(shortcuts.home)]) {
            try await fileRuns().first?["status"] as? String == "succeeded"
        }
        #expect(ran, "the dropped file ran the automation\n\(daemon.log)")
        // The text file was dropped first: had its event started a run, that run would have been
        // recorded before the CSV's.
        #expect(daemon.stop() == 0, "\(daemon.log)")

        let runs = try await fileRuns()
        #expect(runs.count == 1, "one run for the CSV, none for the text file: \(runs)")
        let run = try #require(runs.first)
        #expect(run["trigger"] as? String == "file")
        #expect(run["name"] as? String == "File drop")
        let id = try #require(run["id"] as? String)
        let shown = try await shortcuts.run(["runs", "show", id, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        let recorded = try #require(document["run"] as? [String: Any])
        let inputs = try #require(recorded["inputs"] as? [String: String])
        #expect(inputs == ["file": report.path, "event": "created"])
        #expect(recorded["output"] as? String == report.path)
        let text = try await shortcuts.run(["runs", "show", String(id.prefix(8))])
        #expect(text.output.contains("inputs: { \"event\" : \"created\", \"file\" : \"\(report.path)\" }"), "\(text.output)")
        #expect(daemon.log.contains("File drop: run \(id.prefix(8)) started (file created: \(report.path))"), "\(daemon.log)")
    }

    @Test("automations list shows each automation's triggers; automations run gives one its inputs")
    func listAndRun() async throws {
        let shortcuts = try ShortcutsBinary()
        let root = try TemporaryFolder.make(prefix: "shortcuts-triggers-list")
        defer { try? FileManager.default.removeItem(at: root) }
        try TemporaryFolder.write(
            [
                "Workflows/deploy.yaml": """
                input:
                  version: String
                automation:
                  webhook: { name: deploy, rate: 2/m }
                steps: [ { show: "deploying ${input.version}" } ]
                """,
                "Workflows/sort.yaml": """
                input:
                  file: String
                automation:
                  schedule: "0 9 * * *"
                  watch: { path: inbox, events: [created, modified], pattern: "*.pdf" }
                steps: [ { show: "${input.file}" } ]
                """
            ], in: root)
        let folder = root.appendingPathComponent("Workflows").path
        let listed = try await shortcuts.run(["automations", "list", "--workflows", folder])
        #expect(listed.status == 1, "sort.yaml's input needs a default for the schedule")
        #expect(listed.error.contains("error: input 'file' has no default, and a scheduled run gives no inputs"))
        try TemporaryFolder.write(
            [
                "Workflows/sort.yaml": """
                input:
                  file: { type: String, default: none }
                automation:
                  schedule: "0 9 * * *"
                  watch: { path: inbox, events: [created, modified], pattern: "*.pdf" }
                steps: [ { show: "${input.file}" } ]
                """
            ], in: root)
        let table = try await shortcuts.run(["automations", "list", "--workflows", folder])
        #expect(table.status == 0, "\(table.error)")
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true && lines.first?.contains("TRIGGERS") == true)
        #expect(lines.contains { $0.hasPrefix("deploy") && $0.contains("webhook /hooks/deploy") })
        #expect(lines.contains { $0.hasPrefix("sort") && $0.contains("0 9 * * *; watch inbox (*.pdf; created, modified)") })

        let json = try await shortcuts.run(["automations", "list", "--workflows", folder, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let deploy = try #require(rows.first { $0["name"] as? String == "deploy" })
        #expect(deploy["triggers"] as? [String] == ["webhook"])
        #expect(deploy["schedule"] == nil, "absent, like other values an automation does not have")
        #expect(
            deploy["webhook"] as? [String: String] == ["name": "deploy", "path": "/hooks/deploy", "secret": "WEBHOOK_DEPLOY", "rate": "2/m"])
        let sort = try #require(rows.first { $0["name"] as? String == "sort" })
        #expect(sort["triggers"] as? [String] == ["schedule", "file"])
        let watch = try #require(sort["watch"] as? [String: Any])
        #expect(watch["folder"] as? String == root.appendingPathComponent("Workflows/inbox").path)
        #expect(watch["events"] as? [String] == ["created", "modified"])

        let missing = try await shortcuts.run(["automations", "run", "deploy", "--workflows", folder])
        #expect(missing.status == 1)
        #expect(missing.error.contains("input 'version'"), "\(missing.error)")
        let ran = try await shortcuts.run(["automations", "run", "deploy", "--workflows", folder, "--input", "version=2.1"])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output == "deploying 2.1\n")
        let runs = try await shortcuts.run(["runs", "list", "--trigger", "manual"])
        #expect(runs.output.contains("deploy"))
    }
}

import Foundation
import IntentKit
import ShortcutsTestSupport
import Testing
import WorkflowKit

/// `shortcuts automations list` in process: what each automation last did, whether a due time
/// claimed on its schedule or a run on a file event or a webhook, which are not claimed.
@Suite("automations list")
struct AutomationsCommandTests {
    @Test("The last run of a watch or a webhook automation shows in its LAST and STATUS, and in the JSON")
    func lastTriggeredRun() async throws {
        let shortcuts = try InProcessShortcuts()
        let folder = try TemporaryFolder.make(prefix: "automations-list")
        try TemporaryFolder.write(
            [
                "sort.yaml": "name: Sort inbox\nautomation: { watch: { path: inbox } }\nsteps: [ { comment: sort } ]\n",
                "deploy.yaml": "name: Deploy\nautomation: { webhook: deploy }\nsteps: [ { comment: deploy } ]\n"
            ], in: folder)
        /// The table's rows by name, each as its cells.
        func rows(_ listed: Command) -> [String: [String]] {
            var rows: [String: [String]] = [:]
            for line in listed.output.split(separator: "\n").dropFirst() {
                let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                rows[cells[0]] = cells
            }
            return rows
        }
        let before = await shortcuts.run(["automations", "list", "--workflows", folder.path])
        #expect(before.status == 0, "\(before.error)")
        #expect(before.output.hasPrefix("NAME"))
        #expect(rows(before).values.map { $0.suffix(2) } == [["—", "—"], ["—", "—"]], "\(before.output)")
        // A file event's run, as the daemon records it.
        let history = try RunHistory(path: shortcuts.home.appendingPathComponent("runs.sqlite").path)
        let file = folder.appendingPathComponent("sort.yaml")
        let workflow = try WorkflowLoader.load(contentsOf: file)
        let id = try history.begin(workflow: workflow, trigger: "file")
        try history.finish(id, status: .failed, output: nil, error: "no such folder", steps: [])
        let after = await shortcuts.run(["automations", "list", "--workflows", folder.path])
        let sort = try #require(rows(after)["Sort inbox"])
        #expect(sort.last == "failed", "\(after.output)")
        #expect(sort.dropLast().last?.hasPrefix("20") == true, "the run's start shows under LAST RUN: \(after.output)")
        #expect(rows(after)["Deploy"]?.suffix(2) == ["—", "—"], "\(after.output)")
        let json = await shortcuts.run(["automations", "list", "--workflows", folder.path, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let triggered = try #require(rows.first { $0["name"] as? String == "Sort inbox" }?["lastTriggeredRun"] as? [String: Any])
        #expect(triggered["id"] as? String == id && triggered["trigger"] as? String == "file" && triggered["status"] as? String == "failed")
    }
}

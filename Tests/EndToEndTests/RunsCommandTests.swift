import Foundation
import GRDB
import Testing

/// `runs list`, `runs show` and `runs prune` for people and scripts.
@Suite("Runs command", .endToEnd)
struct RunsCommandTests {
    @Test func anEmptyHistorySaysSo() async throws {
        let shortcuts = try ShortcutsBinary()
        let empty = try await shortcuts.run(["runs", "list"])
        #expect(empty.status == 0)
        #expect(empty.output == "No runs recorded yet.\n")
        #expect(try await shortcuts.run(["runs", "list", "--json"]).output == "[\n\n]\n")
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        #expect(try await shortcuts.run(["runs", "list", "--status", "failed"]).output == "No runs match these filters.\n")
    }

    @Test func theListHasAHeaderATriggerColumnAndFilters() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        _ = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/needs-answer.yaml", "--no-interaction"])
        _ = try await shortcuts.run(["run", "Workflows/library-tour.yaml"])
        let rows = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")
        #expect(rows.count == 4)
        #expect(rows[0].split(separator: " ", omittingEmptySubsequences: true) == ["ID", "STARTED", "STATUS", "TRIGGER", "DURATION", "WORKFLOW"])
        #expect(rows[1].contains("succeeded  manual") && rows[1].hasSuffix("Library tour"))

        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"]).output.split(separator: "\n")
        #expect(failed.count == 2 && failed[1].hasSuffix("Needs an answer"))
        for workflow in ["wait-and-stop.yaml", "Workflows/wait-and-stop.yaml", "wait, then stop early"] {
            let byWorkflow = try await shortcuts.run(["runs", "list", "--workflow", workflow]).output.split(separator: "\n")
            #expect(byWorkflow.count == 2 && byWorkflow[1].hasSuffix("Wait, then stop early"), "\(workflow)")
        }
        #expect(try await shortcuts.run(["runs", "list", "--limit", "1"]).output.split(separator: "\n").count == 2)
        #expect(try await shortcuts.run(["runs", "list", "--since", "1h"]).output.split(separator: "\n").count == 4)
        #expect(try await shortcuts.run(["runs", "list", "--since", "2999-01-01"]).output == "No runs match these filters.\n")
        let bad = try await shortcuts.run(["runs", "list", "--since", "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.error.contains("--since 'yesterday' is neither an ISO 8601 date"))
    }

    @Test func jsonNestsOutputsAndInputsAsJSON() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Workflows/nested-run.yaml"])
        let listed = try await shortcuts.run(["runs", "list", "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["output"] is NSNumber)
        #expect(runs[0]["trigger"] as? String == "manual")
        let shown = try await shortcuts.run(["runs", "show", try #require(runs[0]["id"] as? String), "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.contains { $0["inputs"] is [String: Any] && !($0["inputs"] as! [String: Any]).isEmpty })
        #expect(steps.contains { $0["output"] is [Any] || $0["output"] is [String: Any] })
        #expect(!shown.output.contains("\\\""))
    }

    @Test func aFailedRunShowsItsDiagnosticOnce() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/needs-answer.yaml", "--no-interaction"])
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("\nTests/EndToEndTests/Fixtures/needs-answer.yaml:3:14: error: Library.AddBook needs an answer"))
        #expect(!shown.contains("error: Tests/"))
    }

    @Test func pruneAndTheRetentionDeleteOldRuns() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        let path = shortcuts.home.appendingPathComponent("runs.sqlite").path
        let old = Date().addingTimeInterval(-100 * 86_400).timeIntervalSince1970
        try await DatabaseQueue(path: path).write { db in
            for (id, days) in [("old-1", 100.0), ("old-2", 40.0)] {
                try db.execute(
                    sql: """
                        INSERT INTO run (id, workflow, trigger, startedAt, endedAt, status) VALUES (?, 'Workflows/x.yaml', 'manual', ?, ?, 'succeeded')
                        """, arguments: [id, Date().addingTimeInterval(-days * 86_400).timeIntervalSince1970, old])
            }
            try db.execute(
                sql:
                    "INSERT INTO step (runID, position, depth, kind, file, line, \"column\", inputs, startedAt, durationSeconds) VALUES ('old-1', 0, 0, 'show', 'x', 1, 1, '{}', 0, 0)"
            )
        }
        // The retention ran when the history was created; it runs again once a day.
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        #expect(try await shortcuts.run(["runs", "list"]).output.split(separator: "\n").count == 5)
        try await DatabaseQueue(path: path).write { try $0.execute(sql: "UPDATE maintenance SET lastDoneAt = lastDoneAt - 2 * 86400") }
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        let ids = try await DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT id FROM run") }
        #expect(ids.count == 4 && !ids.contains("old-1") && ids.contains("old-2"))
        #expect(try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM step WHERE runID = 'old-1'") } == 0)

        let pruned = try await shortcuts.run(["runs", "prune", "--older-than", "30d"])
        #expect(pruned.output.hasPrefix("Deleted 1 run that started before "))
        #expect(try await shortcuts.run(["runs", "list"]).output.split(separator: "\n").count == 4)
        #expect(try await shortcuts.run(["runs", "prune", "--older-than", "soon"]).status == 64)
    }

    /// A home the user cannot write (here: read by an unprivileged user): reads still work.
    @Test(
        .enabled(
            if: SystemComponents.available("/usr/bin/setpriv", asRoot: true),
            "needs root and setpriv(1) to read as a user who cannot write the home"))
    func readsWorkOnAReadOnlyHome() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: shortcuts.home.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shortcuts.home.path) }
        for file in try FileManager.default.contentsOfDirectory(atPath: shortcuts.home.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: shortcuts.home.appendingPathComponent(file).path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", ShortcutsBinary.executable.path, "runs", "list"]
        process.currentDirectoryURL = ShortcutsBinary.packageRoot
        process.environment = ["SHORTCUTS_HOME": shortcuts.home.path, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errorText)")
        #expect(text.contains("succeeded  manual"))
    }
}

import Foundation
import GRDB
import IntentKit
import StateStorage
import Testing

@testable import WorkflowKit

@Suite("Run history")
struct RunHistoryTests {
    let path: String
    let workflow: Workflow

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).sqlite").path
        workflow = try WorkflowLoader.load(text: "name: Tiny\nsteps:\n  - show: hello\n", fileName: "Workflows/tiny.yaml")
    }

    /// The pid of a process that has ended.
    func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func statuses(_ history: RunHistory) throws -> [String: String] {
        try history.database.read { connection in
            Dictionary(
                uniqueKeysWithValues: try connection.rows("SELECT id, status FROM run", []).map { ($0.text("id") ?? "", $0.text("status") ?? "") })
        }
    }

    @Test func runsOfDeadProcessesAreSettledByTheNextWriterAndShownSoByReaders() throws {
        let history = try RunHistory(path: path)
        let dead = try history.begin(workflow: workflow)
        let reused = try history.begin(workflow: workflow)
        let alive = try history.begin(workflow: workflow)
        try history.begin([(file: "Workflows/tiny.yaml", name: "Tiny", id: "automation-run")], trigger: "automation")
        let pid = try deadPID()
        try history.database.write { connection in
            try connection.execute("UPDATE run SET ownerPID = ? WHERE id = ?", [.integer(Int64(pid)), .text(dead)])
            // A live pid with another start time: the pid was reused by a later process.
            try connection.execute("UPDATE run SET ownerStartTime = ownerStartTime - 1 WHERE id = ?", [.text(reused)])
        }

        let reader = try RunHistory(path: path, readOnly: true)
        let shown = try reader.runs(RunHistory.Filter(status: .interrupted))
        #expect(Set(shown.map(\.id)) == [dead, reused])
        #expect(shown.first { $0.id == dead }?.error == "interrupted: its process (pid \(pid)) ended before the run did")
        #expect(try statuses(reader)[dead] == "running")

        let writer = try RunHistory(path: path)
        let recorded = try statuses(writer)
        #expect(recorded[dead] == "interrupted" && recorded[reused] == "interrupted")
        #expect(recorded[alive] == "running")
        // The daemon settles its own runs.
        #expect(recorded["automation-run"] == "running")
    }

    @Test func aFileFromBeforeHostsWereRecordedCountsItsRunsAsThisHosts() throws {
        let queue = try DatabaseQueue(path: path)
        try RunHistory.migrator.migrate(queue, upTo: "v4: step branches")
        let pid = try deadPID()
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO run (id, workflow, trigger, startedAt, status, ownerPID, ownerStartTime) VALUES ('old', 'w.yaml', 'manual', ?, 'running', ?, 0)",
                arguments: [Date().timeIntervalSince1970, pid])
        }
        try queue.close()
        let history = try RunHistory(path: path)
        #expect(try statuses(history)["old"] == "interrupted")
        let id = try history.begin(workflow: workflow)
        let host = try history.database.read { try $0.row("SELECT ownerHost FROM run WHERE id = ?", [.text(id)])?.text("ownerHost") }
        #expect(host == ProcessInfo.processInfo.hostName)
    }

    @Test func aProcessIsKnownByItsPIDAndStartTime() throws {
        #expect(RunOwner.current.isAlive)
        #expect(RunOwner.current.startTime > 0)
        #expect(!RunOwner(pid: try deadPID(), startTime: 0).isAlive)
        #expect(!RunOwner(pid: RunOwner.current.pid, startTime: RunOwner.current.startTime + 1).isAlive)
    }
}

extension RunHistoryTests {
    @Test func theHistoryKeepsWhichBranchEachRecordOpens() async throws {
        let parallel = try WorkflowLoader.load(
            text: "name: Sides\nsteps:\n  - parallel:\n      - [ { show: left } ]\n      - [ { show: right } ]\n", fileName: "Workflows/sides.yaml")
        let history = try RunHistory(path: path)
        let result = try await WorkflowRunner(catalog: IntentCatalog(apps: []), history: history).run(parallel)
        let steps = try history.run(matching: try #require(result.runID)).steps
        #expect(steps.filter { $0.kind == "branch" }.map(\.branch) == [1, 2])
        #expect(steps.filter { $0.kind != "branch" }.allSatisfy { $0.branch == nil })
    }
}

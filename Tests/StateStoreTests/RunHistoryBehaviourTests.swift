import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import StateStorage
import Testing

@testable import WorkflowKit

/// The run history behaves the same in a SQLite file and in a PostgreSQL database: every test
/// runs on each store available (PostgreSQL needs its server binaries and the `PostgreSQL` trait).
@Suite("Run history on every store", .serialized, .timeLimit(.minutes(3)))
struct RunHistoryBehaviourTests {
    let tiny = try! WorkflowLoader.load(text: "name: Tiny\nsteps:\n  - show: hello\n", fileName: "Workflows/tiny.yaml")
    let sides = try! WorkflowLoader.load(
        text: "name: Sides\nsteps:\n  - parallel:\n      - [ { show: left } ]\n      - [ { show: right } ]\n", fileName: "Workflows/sides.yaml")

    /// A pid no process has: the highest free one below the system's limit (no process is
    /// started for it, so that this suite never waits on a child while the server starts).
    func deadPID() throws -> Int32 {
        let limit =
            Int32((try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            ?? 32_768
        let pid = try #require(stride(from: limit - 1, to: 300, by: -1).first { kill($0, 0) == -1 && errno == ESRCH })
        return pid
    }

    func statuses(_ database: any StateDatabase) throws -> [String: String] {
        try database.read { connection in
            Dictionary(
                uniqueKeysWithValues: try connection.rows("SELECT id, status FROM run", []).map { ($0.text("id") ?? "", $0.text("status") ?? "") })
        }
    }

    @Test("A run and its steps come back as they were recorded", arguments: HistoryStore.available)
    func roundTrip(_ store: HistoryStore) async throws {
        let history = try RunHistory(database: try store.makeDatabase())
        let before = Date()
        let result = try await WorkflowRunner(catalog: IntentCatalog(apps: []), history: history).run(sides)
        let id = try #require(result.runID)
        let (run, steps) = try history.run(matching: String(id.prefix(8)).uppercased())
        #expect(run.id == id && run.workflow == "Workflows/sides.yaml" && run.name == "Sides" && run.trigger == "manual")
        #expect(run.status == .succeeded && run.error == nil)
        #expect(run.startedAt >= before.addingTimeInterval(-0.001) && run.startedAt <= Date())
        #expect(run.endedAt.map { $0 >= run.startedAt } == true)
        #expect(steps.count == result.steps.count && steps.map(\.position) == Array(0..<result.steps.count))
        for (recorded, trace) in zip(steps, result.steps) {
            #expect(recorded.kind == trace.kind && recorded.depth == trace.depth && recorded.dialog == trace.dialog)
            #expect(recorded.file == trace.location.file && recorded.line == trace.location.line && recorded.column == trace.location.column)
            #expect(abs(recorded.startedAt.timeIntervalSince1970 - trace.startedAt.timeIntervalSince1970) < 0.001)
            #expect(recorded.branch == trace.branch)
        }
        #expect(steps.filter { $0.kind == "branch" }.map(\.branch) == [1, 2])
        #expect(steps.contains { $0.dialog == "left" } && steps.contains { $0.dialog == "right" })
    }

    @Test("A run records the inputs it was given, with secret values masked", arguments: HistoryStore.available)
    func inputs(_ store: HistoryStore) async throws {
        let history = try RunHistory(database: try store.makeDatabase())
        let folder = try TemporaryFolder.make(prefix: "history-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secrets = SecretStore(folder: folder)
        _ = try secrets.set("s3cr3t-token", named: "API_TOKEN")
        let greeter = try WorkflowLoader.load(
            text: "input:\n  name: String\n  token: { type: String, default: none }\nsteps:\n  - show: hi ${input.name}\n",
            fileName: "Workflows/greeter.yaml")
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []), history: history, trigger: "webhook", secrets: secrets)
        let given = try await runner.run(greeter, inputs: ["name": .string("Emma"), "token": .string("s3cr3t-token")])
        let run = try history.run(matching: try #require(given.runID)).run
        #expect(run.trigger == "webhook")
        #expect(try IntentValue.fromJSON(try #require(run.inputs)) == .dictionary(["name": .string("Emma"), "token": .string("***")]))
        let plain = try await WorkflowRunner(catalog: IntentCatalog(apps: []), history: history).run(tiny)
        #expect(try history.run(matching: try #require(plain.runID)).run.inputs == nil, "a run given no inputs records none")
        #expect(try history.runs(RunHistory.Filter(trigger: "webhook")).map(\.inputs) == [run.inputs])
    }

    @Test("A value past the history's caps is kept as its beginning and a note naming the cap", arguments: HistoryStore.available)
    func valueCaps(_ store: HistoryStore) async throws {
        let database = try store.makeDatabase()
        let history = try RunHistory(database: database)
        // 40 steps that returned 312 KiB each: past the cap of one value, and in all past a run's allowance.
        let big = String(repeating: "abcdefgh", count: 40_000)
        let traces = (0..<40).map { position in
            StepTrace(
                kind: "perform", stepID: "text", location: SourceLocation(file: "Workflows/tiny.yaml", line: 3, column: 5), depth: 0,
                inputs: ["position": .int(position)], output: .string(big), dialog: nil, startedAt: Date(), duration: .zero, error: nil)
        }
        let id = try history.begin(workflow: tiny)
        try history.finish(id, status: .succeeded, output: .string(big), error: nil, steps: traces)
        let (run, steps) = try history.run(matching: id)
        #expect(run.status == .succeeded)
        #expect(steps.allSatisfy { !$0.inputs.contains("not kept") }, "small values stay whole")
        let outputs = steps.compactMap(\.output)
        #expect(outputs.count == 40)
        #expect(run.output?.hasSuffix("bytes of each value]") == true, "the run's output is capped too")
        for output in outputs {
            #expect(output.utf8.count < StoredValueCap.valueLimit)
            #expect(output.hasSuffix("bytes of JSON in all; the run history keeps 65536 bytes of each value]"))
            #expect(output.contains("[not kept: 320002 bytes"))
        }
        // What the whole run stored stays near its allowance, however many steps it had.
        let stored = try database.read { connection in
            try connection.rows("SELECT SUM(LENGTH(output)) AS total FROM step WHERE runID = ?", [.text(run.id)]).first?.integer("total") ?? 0
        }
        #expect(stored < Int64(StoredValueCap.runLimit))

        // 200 values of 60 KiB, each within its cap: those past the run's 8 MiB are noted.
        let medium = String(repeating: "x", count: 60_000)
        let many = (0..<200).map { _ in
            StepTrace(
                kind: "show", stepID: nil, location: SourceLocation(file: "Workflows/tiny.yaml", line: 3, column: 5), depth: 0, inputs: [:],
                output: .string(medium), dialog: nil, startedAt: Date(), duration: .zero, error: nil)
        }
        let second = try history.begin(workflow: tiny)
        try history.finish(second, status: .succeeded, output: nil, error: nil, steps: many)
        let kept = try history.run(matching: second).steps.compactMap(\.output)
        #expect(kept.count == 200)
        let whole = kept.filter { !$0.contains("not kept") }.count
        #expect(whole == StoredValueCap.runLimit / 60_002, "as many whole values as the allowance holds")
        #expect(kept.last?.hasSuffix("the run history keeps 8388608 bytes of a run's values in all]") == true)

        var cap = StoredValueCap()
        let small = cap.json(.string("hello"))
        #expect(small == "\"hello\"", "a value within the caps is kept as it is")
        let note = cap.json(.string(String(repeating: "é", count: 40_000)))
        #expect(note.hasPrefix("\"éé") && !note.contains("\u{FFFD}"), "the kept beginning ends on a whole character")
    }

    @Test("Filters by status, workflow, trigger and time combine; ties keep the order runs were recorded in", arguments: HistoryStore.available)
    func filters(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        let failed = try history.begin(workflow: tiny)
        try history.finish(failed, status: .failed, output: nil, error: "no", steps: [])
        let succeeded = try history.begin(workflow: tiny)
        try history.finish(succeeded, status: .succeeded, output: .int(3), error: nil, steps: [])
        let batch = ["b1", "b2", "b3"].map { (file: "Workflows/a_b.yaml", name: String?.none, id: $0) }
        try history.begin(batch, trigger: "automation")
        #expect(try history.runs(.init(status: .failed)).map(\.id) == [failed])
        #expect(try history.runs(.init(status: .succeeded)).first?.output == "3")
        #expect(try history.runs(.init(workflow: "tiny.yaml")).map(\.id) == [succeeded, failed])
        #expect(try history.runs(.init(workflow: "TINY")).count == 2)
        #expect(try history.runs(.init(workflow: "a_b.yaml")).map(\.id) == ["b3", "b2", "b1"])
        #expect(try history.runs(.init(workflow: "axb.yaml")).isEmpty)
        #expect(try history.runs(.init(trigger: "automation")).map(\.id) == ["b3", "b2", "b1"])
        #expect(try history.runs(.init(status: .running, trigger: "automation", limit: 2)).map(\.id) == ["b3", "b2"])
        #expect(try history.runs(.init(trigger: "manual")).map(\.id) == [succeeded, failed])
        #expect(try history.runs(.init(since: Date().addingTimeInterval(60))).isEmpty)
        #expect(try history.runs(.init(limit: 1)).map(\.id) == ["b3"])
        #expect(try history.recentRuns(limit: 10).count == 5)
    }

    @Test("An end time bounds the runs, pages leave out the newer ones, and runs come back by id", arguments: HistoryStore.available)
    func windowsAndPages(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        let ids = try (0..<5).map { _ in try history.begin(workflow: tiny) }
        try history.finish(ids[1], status: .failed, output: nil, error: "no", steps: [])
        let newestFirst = Array(ids.reversed())
        #expect(try history.runs(.init(limit: 2)).map(\.id) == Array(newestFirst.prefix(2)))
        #expect(try history.runs(.init(limit: 2, offset: 2)).map(\.id) == Array(newestFirst[2..<4]))
        #expect(try history.runs(.init(offset: 3)).map(\.id) == Array(newestFirst.suffix(2)), "an offset without a limit takes the rest")
        #expect(try history.runs(.init(limit: 2, offset: 5)).isEmpty)
        #expect(try history.runs(.init(status: .running, limit: 2, offset: 1)).map(\.id) == [ids[3], ids[2]])
        let started = try history.runs(.init()).map(\.startedAt)
        #expect(try history.runs(.init(until: started.min()!)).isEmpty, "the end time is left out")
        #expect(try history.runs(.init(until: Date().addingTimeInterval(1))).count == 5)
        #expect(try history.runs(.init(since: Date().addingTimeInterval(-60), until: Date().addingTimeInterval(-30))).isEmpty)
        let found = try history.runs(ids: [ids[1], "no-such-run", ids[4]])
        #expect(Set(found.map(\.id)) == [ids[1], ids[4]])
        #expect(found.first { $0.id == ids[1] }?.status == .failed)
        #expect(try history.runs(ids: []).isEmpty)
        let many = try history.runs(ids: (0..<1_200).map { "missing-\($0)" } + [ids[0]])
        #expect(many.map(\.id) == [ids[0]], "ids are read in chunks")
    }

    @Test("Runs of a time window are counted by status, a dead process's running run as interrupted", arguments: HistoryStore.available)
    func statusCounts(_ store: HistoryStore) throws {
        let database = try store.makeDatabase()
        let history = try RunHistory(database: database)
        let start = Date().addingTimeInterval(-1)
        for status in [RunHistory.Status.succeeded, .succeeded, .failed, .cancelled] {
            let id = try history.begin(workflow: tiny)
            try history.finish(id, status: status, output: nil, error: status == .succeeded ? nil : "no", steps: [])
        }
        _ = try history.begin(workflow: tiny)
        let abandoned = try history.begin(workflow: tiny)
        let pid = try deadPID()
        try database.write { connection in
            try connection.execute("UPDATE run SET ownerPID = ? WHERE id = ?", [.integer(Int64(pid)), .text(abandoned)])
        }
        let counts = try history.statusCounts(from: start, to: Date().addingTimeInterval(1))
        #expect(counts == [.succeeded: 2, .failed: 1, .cancelled: 1, .running: 1, .interrupted: 1])
        #expect(try history.statusCounts(from: start.addingTimeInterval(-3_600), to: start).isEmpty)
    }

    @Test("A run is found by a unique prefix of its id; none or several are errors", arguments: HistoryStore.available)
    func prefixes(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        try history.begin(
            [("Workflows/tiny.yaml", "Tiny", "abc1"), ("Workflows/tiny.yaml", "Tiny", "abc2"), ("Workflows/tiny.yaml", "Tiny", "a%c")],
            trigger: "automation")
        #expect(try history.run(matching: "ABC1").run.id == "abc1")
        #expect(try history.run(matching: "a%").run.id == "a%c")
        #expect(throws: HistoryError.self) { try history.run(matching: "abc") }
        #expect(throws: HistoryError.self) { try history.run(matching: "zz") }
        #expect(throws: HistoryError.self) { try history.run(matching: "a_c") }
    }

    @Test("Marking settles running runs only, unless asked, and counts what it changed", arguments: HistoryStore.available)
    func marking(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        try history.begin([("Workflows/tiny.yaml", nil, "one"), ("Workflows/tiny.yaml", nil, "two")], trigger: "automation")
        try history.finish("two", status: .succeeded, output: nil, error: nil, steps: [])
        #expect(try history.mark(["one", "two", "unknown"], as: .interrupted, error: "interrupted: the daemon stopped") == 1)
        #expect(try history.run(matching: "one").run.error == "interrupted: the daemon stopped")
        #expect(try history.run(matching: "one").run.endedAt != nil)
        #expect(try history.run(matching: "two").run.status == .succeeded)
        #expect(try history.mark(["two"], as: .cancelled, error: "replaced", onlyRunning: false) == 1)
        #expect(try history.run(matching: "two").run.status == .cancelled)
    }

    @Test("A run whose start was never recorded is added as ended; one recorded is left as it is", arguments: HistoryStore.available)
    func unbegunRuns(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        try history.begin([("Workflows/tiny.yaml", "Tiny", "begun")], trigger: "automation")
        let claimed = Date(timeIntervalSince1970: 1_700_000_000.25)
        let message = "interrupted: the daemon with pid 7 stopped while it ran (killed or crashed)"
        let added = try history.recordUnbegun(
            [
                (file: "Workflows/tiny.yaml", name: "Tiny", id: "begun", startedAt: claimed),
                (file: "reports/nightly.yaml", name: "Nightly", id: "unbegun", startedAt: claimed)
            ], trigger: "automation", status: .interrupted, error: message)
        #expect(added == 1)
        #expect(try history.run(matching: "begun").run.status == .running)
        let unbegun = try history.run(matching: "unbegun")
        #expect(unbegun.run.status == .interrupted && unbegun.run.error == message && unbegun.steps.isEmpty)
        #expect(unbegun.run.workflow == "reports/nightly.yaml" && unbegun.run.name == "Nightly" && unbegun.run.trigger == "automation")
        #expect(abs(unbegun.run.startedAt.timeIntervalSince(claimed)) < 0.001)
        #expect(try #require(unbegun.run.endedAt) >= unbegun.run.startedAt)
        // Recording it again changes nothing.
        #expect(
            try history.recordUnbegun(
                [(file: "reports/nightly.yaml", name: "Nightly", id: "unbegun", startedAt: Date())], trigger: "automation", status: .failed,
                error: "again") == 0)
        #expect(try history.run(matching: "unbegun").run.status == .interrupted)
    }

    @Test("Starting runs another process settled first leaves their records and names them", arguments: HistoryStore.available)
    func startsSettledElsewhere(_ store: HistoryStore) throws {
        let history = try RunHistory(database: try store.makeDatabase())
        let message = "interrupted: the daemon with pid 7 on elsewhere stopped while it ran (killed or crashed)"
        // A daemon paused past its lease claimed "settled"; another daemon settled it meanwhile.
        try history.recordUnbegun(
            [(file: "Workflows/tiny.yaml", name: "Tiny", id: "settled", startedAt: Date())], trigger: "automation", status: .interrupted,
            error: message)
        let begun = try history.begin([("Workflows/tiny.yaml", "Tiny", "settled"), ("Workflows/tiny.yaml", "Tiny", "fresh")], trigger: "automation")
        #expect(begun.alreadyRecorded == ["settled"])
        let settled = try history.run(matching: "settled").run
        #expect(settled.status == .interrupted && settled.error == message)
        let fresh = try history.run(matching: "fresh").run
        #expect(fresh.status == .running && abs(fresh.startedAt.timeIntervalSince(begun.startedAt)) < 0.001)
        #expect(try history.begin([], trigger: "automation").alreadyRecorded.isEmpty)
    }

    @Test("Only the host that recorded a manual run judges whether its process lives", arguments: HistoryStore.available)
    func ownerHosts(_ store: HistoryStore) throws {
        let database = try store.makeDatabase()
        let here = try RunHistory(database: database, host: "machine-a")
        let there = try RunHistory(database: database, host: "machine-b")
        let deadHere = try here.begin(workflow: tiny)
        let deadThere = try there.begin(workflow: tiny)
        let aliveHere = try here.begin(workflow: tiny)
        try here.begin([("Workflows/tiny.yaml", "Tiny", "automation-run")], trigger: "automation")
        let pid = try deadPID()
        try database.write { connection in
            try connection.execute("UPDATE run SET ownerPID = ? WHERE id IN (?, ?)", [.integer(Int64(pid)), .text(deadHere), .text(deadThere)])
        }
        // Each host shows its own dead runs as interrupted, and the other host's as running.
        #expect(try here.runs(.init(status: .interrupted)).map(\.id) == [deadHere])
        #expect(try there.runs(.init(status: .interrupted)).map(\.id) == [deadThere])
        #expect(try here.run(matching: deadThere).run.status == .running)
        #expect(try statuses(database)[deadHere] == "running")

        _ = try RunHistory(database: database, host: "machine-a")
        var recorded = try statuses(database)
        #expect(recorded[deadHere] == "interrupted" && recorded[deadThere] == "running")
        #expect(recorded[aliveHere] == "running" && recorded["automation-run"] == "running")
        #expect(try there.settleAbandonedRuns() == 1)
        recorded = try statuses(database)
        #expect(recorded[deadThere] == "interrupted" && recorded[aliveHere] == "running")
        #expect(try there.run(matching: deadThere).run.error == "interrupted: its process (pid \(pid)) ended before the run did")
    }

    @Test("The retention deletes old runs and their steps once a day; prune deletes on request", arguments: HistoryStore.available)
    func retention(_ store: HistoryStore) async throws {
        let database = try store.makeDatabase()
        let now = Date()
        let history = try RunHistory(database: database, host: "machine-a", now: now)
        let traced = try await WorkflowRunner(catalog: IntentCatalog(apps: []), history: history).run(sides)
        let tracedID = try #require(traced.runID)
        func insert(_ id: String, daysAgo: Double, status: String = "succeeded") throws {
            try database.write { connection in
                try connection.execute(
                    "INSERT INTO run (id, workflow, trigger, startedAt, status) VALUES (?, 'w.yaml', 'manual', ?, ?)",
                    [.text(id), .date(now.addingTimeInterval(-daysAgo * 86_400)), .text(status)])
            }
        }
        try insert("old", daysAgo: 91)
        try insert("recent", daysAgo: 80)
        try insert("old-running", daysAgo: 120, status: "running")
        try database.write { connection in
            try connection.execute("UPDATE run SET startedAt = ? WHERE id = ?", [.date(now.addingTimeInterval(-100 * 86_400)), .text(tracedID)])
        }
        _ = try RunHistory(database: database, host: "machine-a", now: now.addingTimeInterval(3600))
        #expect(try statuses(database).keys.sorted() == ["old", "old-running", "recent", tracedID].sorted())
        _ = try RunHistory(database: database, host: "machine-b", now: now.addingTimeInterval(86_401))
        #expect(try statuses(database).keys.sorted() == ["old-running", "recent"])
        let steps = try database.read { try $0.row("SELECT count(*) AS n FROM step WHERE runID = ?", [.text(tracedID)])?.integer("n") }
        #expect(steps == 0)
        #expect(try history.prune(olderThan: now.addingTimeInterval(-10 * 86_400)) == 1)
        #expect(try statuses(database).keys.sorted() == ["old-running"])
    }

    @Test("Histories in several threads record every run of each other", arguments: HistoryStore.available)
    func concurrentWriters(_ store: HistoryStore) throws {
        let database = try store.makeDatabase()
        let workflow = tiny
        let errors = LockedList<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            do {
                let history = try RunHistory(database: database, host: "machine-\(writer)")
                for _ in 0..<10 {
                    let id = try history.begin(workflow: workflow)
                    try history.finish(id, status: .succeeded, output: .int(writer), error: nil, steps: [])
                }
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.items.isEmpty)
        let history = try RunHistory(database: database)
        #expect(try history.runs(.init(status: .succeeded)).count == 40)
        #expect(Set(try history.runs(.init()).compactMap(\.output)) == ["0", "1", "2", "3"])
    }
}

/// A list appended to from several threads.
final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Element] = []

    func append(_ element: Element) { lock.withLock { list.append(element) } }
    var items: [Element] { lock.withLock { list } }
}

#if PostgreSQL
    import PostgresStorage

    extension RunHistoryBehaviourTests {
        @Test(
            "A PostgreSQL database without the history's migrations is named with the fix",
            .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
        func missingMigrations() throws {
            let database = try PostgresStateDatabase(url: PostgresServer.shared().makeDatabase(), migrations: [])
            let error = try #require(throws: StateDatabaseError.self) { try RunHistory(database: database) }
            #expect(error.location == database.location)
            #expect(error.reason.contains("'runs v1: runs, steps and maintenance', 'runs v2: run inputs' not applied"))
            #expect(error.reason.contains("help: open the database with RunHistory.postgresMigrations"))
        }
    }
#endif

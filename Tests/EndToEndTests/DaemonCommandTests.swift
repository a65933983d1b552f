import Foundation
import GRDB
import Testing

/// `shortcuts daemon` as operators run it: killed with SIGKILL mid-run and restarted, two at
/// once on one `$SHORTCUTS_HOME`, stopped with SIGTERM. Checked through the SQLite files.
@Suite("Daemon", .serialized)
struct DaemonCommandTests {
    static let slowTick = "Tests/EndToEndTests/Fixtures/Automations/SlowTick"
    static let tick = "Tests/EndToEndTests/Fixtures/Automations/Tick"

    @Test("SIGKILL during a run, then a restart: no due time twice, the run marked interrupted, catch-up of the latest missed time")
    func killedAndRestarted() async throws {
        let shortcuts = try ShortcutsBinary()
        let state = DaemonState(home: shortcuts.home)
        let first = try DaemonProcess.start(shortcuts, folder: Self.slowTick, grace: "10s")
        try await state.waitFor("a run in flight") { db in
            // Claimed less than a second ago: its run (a 1.5 s wait) is certainly still going.
            try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status = 'running' AND claimedAt > ?",
                             arguments: [Date().timeIntervalSince1970 - 1]) ?? 0 > 0
        }
        try await Task.sleep(for: .milliseconds(300))
        first.kill(SIGKILL)
        let killed = Date()
        try await Task.sleep(for: .milliseconds(2600))
        let second = try DaemonProcess.start(shortcuts, folder: Self.slowTick, grace: "200ms")
        try await state.waitFor("the catch-up run") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE isCatchUp AND status = 'running'") ?? 0 > 0
        }
        try await Task.sleep(for: .milliseconds(500))
        let status = second.stop()
        #expect(status == 0, "\(second.log)")
        #expect(second.log.contains("stopped"))

        let claims = try state.claims()
        let runs = try state.runs()
        #expect(Set(claims.map(\.dueTime)).count == claims.count, "no due time is claimed twice")
        let runIDs = claims.compactMap(\.runID)
        #expect(Set(runIDs).count == runIDs.count, "no run belongs to two due times")
        #expect(Set(runs.map(\.id)) == Set(runIDs), "every automation run is linked to its due time")
        #expect(!runs.contains { $0.status == "running" })

        let firstClaims = claims.filter { $0.daemonID == claims[0].daemonID }
        let interrupted = claims.filter { $0.status == "interrupted" }
        #expect(interrupted.count == 1)
        let lost = try #require(interrupted.first)
        #expect(firstClaims.contains { $0.dueTime == lost.dueTime })
        #expect(Double(lost.dueTime) < killed.timeIntervalSince1970)
        let lostRun = try #require(runs.first { $0.id == lost.runID })
        #expect(lostRun.status == "interrupted")
        #expect(lostRun.error == "interrupted: the daemon with pid \(first.pid) stopped while it ran (killed or crashed)")

        let catchUps = claims.filter(\.isCatchUp)
        #expect(catchUps.count == 1, "catchUp: latest runs one missed due time")
        let catchUp = try #require(catchUps.first)
        let lastBeforeKill = try #require(firstClaims.map(\.dueTime).max())
        #expect(!claims.contains { $0.dueTime > lastBeforeKill && $0.dueTime < catchUp.dueTime }, "earlier missed times did not run")
        #expect(Double(catchUp.dueTime) > killed.timeIntervalSince1970 && Double(catchUp.dueTime) < Date().timeIntervalSince1970 - 1)
        let missed = catchUp.dueTime - lastBeforeKill
        #expect(catchUp.status == "cancelled", "SIGTERM with a 200 ms grace cancels the running catch-up")
        #expect(catchUp.note == "catch-up: the latest of \(missed) missed due time\(missed == 1 ? "" : "s"); "
                + "cancelled: the daemon stopped and its grace period of 200 ms was over")
        #expect(runs.first { $0.id == catchUp.runID }?.status == "cancelled")

        let list = try shortcuts.run(["runs", "list"])
        #expect(list.output.contains("interrupted"))
    }

    @Test("Two daemons on one database run each due time exactly once")
    func twoDaemons() async throws {
        let shortcuts = try ShortcutsBinary()
        let state = DaemonState(home: shortcuts.home)
        let daemons = try [DaemonProcess.start(shortcuts, folder: Self.tick, grace: "5s"),
                           DaemonProcess.start(shortcuts, folder: Self.tick, grace: "5s")]
        try await state.waitFor("three due times") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status = 'succeeded'") ?? 0 >= 3
        }
        try await Task.sleep(for: .seconds(2))
        for daemon in daemons {
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }
        let claims = try state.claims()
        let dueTimes = claims.map(\.dueTime).sorted()
        #expect(dueTimes.count >= 4)
        #expect(dueTimes.count == Int((dueTimes.last ?? 0) - (dueTimes.first ?? 0)) + 1, "every second from the first to the last, once")
        #expect(claims.allSatisfy { $0.status == "succeeded" })
        let runs = try state.runs()
        #expect(runs.count == claims.count)
        #expect(Set(runs.map(\.id)) == Set(claims.compactMap(\.runID)))
        #expect(runs.allSatisfy { $0.status == "succeeded" && $0.trigger == "automation" })
        let stopped = try state.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM daemon WHERE stoppedAt IS NOT NULL") }
        #expect(stopped == 2)
    }

    @Test("automations list, list automations, automations run, and located errors in the automation block")
    func commands() throws {
        let shortcuts = try ShortcutsBinary()
        let list = try shortcuts.run(["automations", "list", "--workflows", Self.tick])
        #expect(list.status == 0, "\(list.error)")
        let rows = list.output.split(separator: "\n")
        #expect(rows.first?.hasPrefix("NAME") == true)
        #expect(rows.last?.hasPrefix("Tick  \(Self.tick)/tick.yaml  * * * * * *") == true)
        #expect(rows.last?.hasSuffix("—         —") == true)

        let json = try shortcuts.run(["automations", "list", "--workflows", Self.tick, "--json"])
        let automations = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(automations.first?["catchUp"] as? String == "all")
        #expect(automations.first?["next"] is String)

        let listed = try shortcuts.run(["list", "automations"])
        #expect(listed.output.contains("Morning reminder  Workflows/morning-reminder.yaml  0 8 * * MON-FRI (Europe/Paris)"))

        let ran = try shortcuts.run(["automations", "run", "tick", "--workflows", Self.tick])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output == "tick\ntock\n")
        #expect(try shortcuts.run(["runs", "list"]).output.contains("succeeded"))

        let unknown = try shortcuts.run(["automations", "run", "tock", "--workflows", Self.tick])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("error: no automation 'tock' in \(Self.tick)\nhelp: did you mean 'Tick'?"))

        let invalid = try shortcuts.run(["validate", "Tests/EndToEndTests/Fixtures/bad-automation.yaml"])
        #expect(invalid.status == 1)
        #expect(invalid.error.contains("""
            Tests/EndToEndTests/Fixtures/bad-automation.yaml:5:26: error: invalid schedule: field 5 (day of week): unknown name 'FRY'; did you mean FRI?
                5 |   schedule: "0 9 * * MON-FRY"
                  |                          ^~~
            """))
        #expect(invalid.error.contains("help: did you mean 'Europe/Paris'?"))
        #expect(invalid.error.contains("error: timeout must be longer than 0"))
        #expect(invalid.error.contains("error: input 'shelf' has no default, and an automation runs without inputs"))

        let usage = try shortcuts.run(["daemon", "--workflows", "Nowhere"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("no workflows folder 'Nowhere'"))
    }
}

extension DaemonCommandTests {
    @Test("automations run --json nests the output; a missing folder is an error naming it")
    func jsonAndMissingFolder() throws {
        let shortcuts = try ShortcutsBinary()
        let ran = try shortcuts.run(["automations", "run", "tick", "--workflows", Self.tick, "--json"])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.error == "tick\n", "shown text goes to standard error")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(ran.output.utf8)) as? [String: Any])
        #expect(result["status"] as? String == "succeeded")
        #expect(result["output"] as? String == "tock")
        #expect((result["runIDs"] as? [String])?.count == 1)

        for arguments in [["automations", "list", "--workflows", "Nowhere"], ["automations", "run", "tick", "--workflows", "Nowhere"]] {
            let missing = try shortcuts.run(arguments)
            #expect(missing.status == 1)
            #expect(missing.error.hasPrefix("error: no folder 'Nowhere'\nhelp: "))
        }
    }
}

/// A `shortcuts daemon` process with its log in a file.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    let logFile: URL

    static func start(_ shortcuts: ShortcutsBinary, folder: String, grace: String) throws -> DaemonProcess {
        let daemon = DaemonProcess(logFile: shortcuts.home.appendingPathComponent("daemon-\(UUID().uuidString).log"))
        try FileManager.default.createDirectory(at: shortcuts.home, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: daemon.logFile.path, contents: nil)
        daemon.process.executableURL = ShortcutsBinary.executable
        daemon.process.arguments = ["daemon", "--workflows", folder, "--grace", grace]
        daemon.process.currentDirectoryURL = ShortcutsBinary.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        daemon.process.environment = environment
        daemon.process.standardOutput = FileHandle.nullDevice
        daemon.process.standardError = try FileHandle(forWritingTo: daemon.logFile)
        try daemon.process.run()
        return daemon
    }

    private init(logFile: URL) {
        self.logFile = logFile
    }

    var pid: Int32 { process.processIdentifier }
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func kill(_ signal: Int32) {
        _ = Foundation.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    /// Sends SIGTERM and waits for the exit status.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// The daemon's SQLite files, read as another process would.
struct DaemonState {
    let home: URL

    struct ClaimRow: FetchableRecord, Decodable {
        var dueTime: Int64
        var status: String
        var runID: String?
        var daemonID: String
        var isCatchUp: Bool
        var note: String?
    }

    struct RunRow: FetchableRecord, Decodable {
        var id: String
        var status: String
        var trigger: String
        var error: String?
    }

    func read<T>(_ file: String = "automations.sqlite", _ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue(path: home.appendingPathComponent(file).path).read(body)
    }

    /// Every claim, in the order they were made.
    func claims() throws -> [ClaimRow] {
        try read { try ClaimRow.fetchAll($0, sql: "SELECT * FROM claim ORDER BY id") }
    }

    /// Every run the daemons recorded.
    func runs() throws -> [RunRow] {
        try read("runs.sqlite") { try RunRow.fetchAll($0, sql: "SELECT * FROM run WHERE trigger = 'automation'") }
    }

    /// Waits up to 30 seconds (the whole test suite may be loading the machine) for a
    /// condition on `automations.sqlite`.
    func waitFor(_ what: String, _ condition: (Database) throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: home.appendingPathComponent("automations.sqlite").path),
               (try? read("automations.sqlite", condition)) == true {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out waiting for \(what)")
    }
}

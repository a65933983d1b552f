import Foundation
import GRDB
import Testing

/// `shortcuts daemon` as operators run it: killed with SIGKILL mid-run and restarted, two at
/// once on one `$SHORTCUTS_HOME`, stopped with SIGTERM. Checked through the SQLite files.
@Suite("Daemon", .serialized, .endToEnd)
struct DaemonCommandTests {
    static let slowTick = "Tests/EndToEndTests/Fixtures/Automations/SlowTick"
    static let tick = "Tests/EndToEndTests/Fixtures/Automations/Tick"

    @Test("SIGKILL during a run, then a restart: no due time twice, the run marked interrupted, catch-up of the latest missed time")
    func killedAndRestarted() async throws {
        let shortcuts = try ShortcutsBinary()
        let state = DaemonState(home: shortcuts.home)
        let first = try DaemonProcess.start(shortcuts, folder: Self.slowTick, grace: "10s")
        // Seeing a run going in the history and the SIGKILL happen on one thread outside Swift's
        // cooperative pool, so that no other test's blocking work comes between them; a run
        // takes 4.5 s, so it is still going when the signal arrives.
        let seen = try await detached { () -> (held: Bool, reason: String, killed: Date, inFlight: [DaemonState.RunRow]) in
            let found = state.poll("runs.sqlite") { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM run WHERE trigger = 'automation' AND status = 'running'") ?? 0 > 0
            }
            first.kill(SIGKILL)
            let killed = Date()
            let inFlight = found.held ? try state.runs().filter { $0.status == "running" } : []
            return (found.held, found.reason, killed, inFlight)
        }
        guard seen.held else {
            Issue.record("timed out waiting for a run in flight\(seen.reason)\n\(first.log)")
            return
        }
        let killed = seen.killed
        #expect(seen.inFlight.count == 1, "the SIGKILL found one run going: \(seen.inFlight.map(\.id))")
        // Wall time: the killed daemon's due times must pass on the real clock for the restarted one to catch up.
        try await Task.sleep(for: .milliseconds(2600))
        let second = try DaemonProcess.start(shortcuts, folder: Self.slowTick, grace: "200ms")
        // The catch-up run is seen, given half a second to begin, and SIGTERM sent off the
        // cooperative pool too: it must still be going when the 200 ms grace period ends.
        let stopped = try await detached { () -> (held: Bool, reason: String, status: Int32) in
            let caughtUp = state.poll { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE isCatchUp AND status = 'running'") ?? 0 > 0
            }
            // Wall time: the catch-up run must be under way in the real daemon when its 200 ms grace starts.
            if caughtUp.held { Thread.sleep(forTimeInterval: 0.5) }
            return (caughtUp.held, caughtUp.reason, second.stop())
        }
        if !stopped.held { Issue.record("timed out waiting for the catch-up run\(stopped.reason)\n\(second.log)") }
        let status = stopped.status
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
        #expect(
            catchUp.note == "catch-up: the latest of \(missed) missed due time\(missed == 1 ? "" : "s"); "
                + "cancelled: the daemon stopped and its grace period of 200 ms was over")
        #expect(runs.first { $0.id == catchUp.runID }?.status == "cancelled")

        let list = try await shortcuts.run(["runs", "list"])
        #expect(list.output.contains("interrupted"))
    }

    @Test("Two daemons on one database run each due time exactly once")
    func twoDaemons() async throws {
        let shortcuts = try ShortcutsBinary()
        let state = DaemonState(home: shortcuts.home)
        let daemons = try [
            DaemonProcess.start(shortcuts, folder: Self.tick, grace: "5s"),
            DaemonProcess.start(shortcuts, folder: Self.tick, grace: "5s")
        ]
        try await state.waitFor("five due times") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status = 'succeeded'") ?? 0 >= 5
        }
        // Both get SIGTERM at once, so that neither goes on claiming while the other stops.
        let statuses = try await detached { () -> [Int32] in
            for daemon in daemons { daemon.terminate() }
            return daemons.map { $0.waitForExit() }
        }
        for (daemon, status) in zip(daemons, statuses) {
            #expect(status == 0, "\(daemon.log)")
        }
        #expect(daemons.contains { $0.log.contains("warning another daemon (pid ") }, "the later daemon says it shares the database")
        let claims = try state.claims()
        let dueTimes = claims.map(\.dueTime).sorted()
        #expect(dueTimes.count >= 4)
        #expect(dueTimes.count == Int((dueTimes.last ?? 0) - (dueTimes.first ?? 0)) + 1, "every second from the first to the last, once")
        // A due time claimed while SIGTERM arrives does not start: "no new run starts" once stopping.
        let stoppedFirst = { (claim: DaemonState.ClaimRow) in
            claim.status == "cancelled" && claim.note == "the daemon stopped before it started" && claim.dueTime >= dueTimes.last! - 1
        }
        #expect(claims.allSatisfy { $0.status == "succeeded" || stoppedFirst($0) }, "\(claims.map { "\($0.dueTime) \($0.status) \($0.note ?? "")" })")
        let runs = try state.runs()
        #expect(runs.count == claims.count)
        #expect(Set(runs.map(\.id)) == Set(claims.compactMap(\.runID)))
        let cancelledRuns = Set(claims.filter(stoppedFirst).compactMap(\.runID))
        #expect(runs.allSatisfy { ($0.status == "succeeded" || cancelledRuns.contains($0.id)) && $0.trigger == "automation" })
        let stopped = try state.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM daemon WHERE stoppedAt IS NOT NULL") }
        #expect(stopped == 2)
    }

    @Test("automations list, list automations, automations run, and located errors in the automation block")
    func commands() async throws {
        let shortcuts = try ShortcutsBinary()
        let list = try await shortcuts.run(["automations", "list", "--workflows", Self.tick])
        #expect(list.status == 0, "\(list.error)")
        let rows = list.output.split(separator: "\n")
        #expect(rows.first?.hasPrefix("NAME") == true)
        #expect(rows.last?.hasPrefix("Tick  \(Self.tick)/tick.yaml  * * * * * *") == true)
        #expect(rows.last?.hasSuffix("—         —") == true)

        let json = try await shortcuts.run(["automations", "list", "--workflows", Self.tick, "--json"])
        let automations = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(automations.first?["catchUp"] as? String == "all")
        #expect(automations.first?["next"] is String)

        let listed = try await shortcuts.run(["list", "automations"])
        let reminder = listed.output.split(separator: "\n").first { $0.hasPrefix("Morning reminder ") } ?? ""
        #expect(
            reminder.split(separator: /\s{2,}/).prefix(3).map(String.init)
                == ["Morning reminder", "Workflows/morning-reminder.yaml", "0 8 * * MON-FRI (Europe/Paris)"], "\(listed.output)")

        let ran = try await shortcuts.run(["automations", "run", "tick", "--workflows", Self.tick])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output == "tick\ntock\n")
        #expect(try await shortcuts.run(["runs", "list"]).output.contains("succeeded"))

        let unknown = try await shortcuts.run(["automations", "run", "tock", "--workflows", Self.tick])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("error: no automation 'tock' in \(Self.tick)\nhelp: did you mean 'Tick'?"))

        let invalid = try await shortcuts.run(["validate", "Tests/EndToEndTests/Fixtures/bad-automation.yaml"])
        #expect(invalid.status == 1)
        #expect(
            invalid.error.contains(
                """
                Tests/EndToEndTests/Fixtures/bad-automation.yaml:5:26: error: invalid schedule: field 5 (day of week): unknown name 'FRY'; did you mean FRI?
                    5 |   schedule: "0 9 * * MON-FRY"
                      |                          ^~~
                """))
        #expect(invalid.error.contains("help: did you mean 'Europe/Paris'?"))
        #expect(invalid.error.contains("error: timeout must be longer than 0"))
        #expect(invalid.error.contains("error: input 'shelf' has no default, and a scheduled run gives no inputs"))

        let usage = try await shortcuts.run(["daemon", "--workflows", "Nowhere"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("no workflows folder 'Nowhere'"))
    }
}

extension DaemonCommandTests {
    @Test("automations run --json nests the output; a missing folder is an error naming it")
    func jsonAndMissingFolder() async throws {
        let shortcuts = try ShortcutsBinary()
        let ran = try await shortcuts.run(["automations", "run", "tick", "--workflows", Self.tick, "--json"])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.error == "tick\n", "shown text goes to standard error")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(ran.output.utf8)) as? [String: Any])
        #expect(result["status"] as? String == "succeeded")
        #expect(result["output"] as? String == "tock")
        #expect((result["runIDs"] as? [String])?.count == 1)

        let empty = shortcuts.home.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try await shortcuts.run(["automations", "list", "--workflows", empty.path])
        #expect(none.status == 0)
        #expect(none.output == "No automations in \(empty.path).\n")

        for arguments in [["automations", "list", "--workflows", "Nowhere"], ["automations", "run", "tick", "--workflows", "Nowhere"]] {
            let missing = try await shortcuts.run(arguments)
            #expect(missing.status == 1)
            #expect(missing.error.hasPrefix("error: no folder 'Nowhere'\nhelp: "))
        }
    }
}

extension DaemonCommandTests {
    @Test("As a systemd service: READY=1 and STOPPING=1 on NOTIFY_SOCKET, SIGHUP reloads, journald lines without a time")
    func service() async throws {
        let shortcuts = try ShortcutsBinary()
        let socket = try NotifySocket()
        let daemon = try DaemonProcess.start(
            shortcuts, folder: Self.tick, grace: "2s", arguments: ["--log-level", "debug"],
            environment: ["NOTIFY_SOCKET": socket.path, "JOURNAL_STREAM": "8:12345"])
        let ready = try #require(socket.receive(timeout: 30), "\(daemon.log)")
        #expect(ready == "READY=1\nMAINPID=\(daemon.pid)")
        #expect(daemon.log.contains("<6>info scheduling 1 automation from \(Self.tick)"))
        _ = Foundation.kill(daemon.pid, SIGHUP)
        try await daemon.waitForLog("<6>info received SIGHUP: reloading the folder")
        #expect(daemon.isRunning, "SIGHUP does not kill the daemon")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(socket.receive(timeout: 5) == "STOPPING=1")
        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("<") }, "one line per record, each with its priority: \(daemon.log)")
    }

    @Test("--log-format json: one JSON object per line; --log-level filters; a bad level is a usage error")
    func jsonLog() async throws {
        let shortcuts = try ShortcutsBinary()
        try FileManager.default.createDirectory(at: shortcuts.home.appendingPathComponent("daemons"), withIntermediateDirectories: true)
        let stale = shortcuts.home.appendingPathComponent("daemons/5ca1ab1e-0000-0000-0000-000000000000.lock")
        #expect(FileManager.default.createFile(atPath: stale.path, contents: nil))
        let daemon = try DaemonProcess.start(shortcuts, folder: Self.tick, grace: "2s", arguments: ["--log-format", "json"])
        let state = DaemonState(home: shortcuts.home)
        try await state.waitFor("a run") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status = 'succeeded'") ?? 0 > 0 }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "the stale lock file was removed")
        let records = try daemon.log.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
        }
        #expect(records.contains { $0["level"] == "info" && $0["message"] == "stopped" && $0["time"] != nil })
        #expect(records.contains { $0["message"]?.hasPrefix("removed 1 stale lock file") == true })

        // A run of its own shows the quiet daemon did what the first logged, at info.
        let succeeded = "SELECT count(*) FROM claim WHERE status = 'succeeded'"
        let before = try state.read("automations.sqlite") { try Int.fetchOne($0, sql: succeeded) ?? 0 }
        let quiet = try DaemonProcess.start(shortcuts, folder: Self.tick, grace: "2s", arguments: ["--log-level", "warning"])
        try await state.waitFor("a run of the quiet daemon") { db in try Int.fetchOne(db, sql: succeeded) ?? 0 > before }
        #expect(quiet.stop() == 0)
        #expect(quiet.log == "", "nothing at warning or above: \(quiet.log)")

        let usage = try await shortcuts.run(["daemon", "--workflows", Self.tick, "--log-level", "verbose"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("--log-level 'verbose' is not one of trace, debug, info, notice, warning, error, critical"))
    }
}

extension DaemonCommandTests {
    /// Two processes opening a new SQLite file at once: one switches it to WAL mode while the
    /// other holds a lock, and SQLite answers "database is locked" at once, without waiting for
    /// the busy timeout. The daemon that lost exited 1 before it scheduled anything (about one
    /// start in ten). Each pair is started one right after the other.
    @Test("Two daemons started at once on a new home both start and exit 0 at SIGTERM (twenty times)")
    func simultaneousStarts() async throws {
        var failures: [String] = []
        for round in 1...20 {
            let shortcuts = try ShortcutsBinary()
            defer { try? FileManager.default.removeItem(at: shortcuts.home) }
            let pair = try [
                DaemonProcess.start(shortcuts, folder: Self.tick, grace: "2s"), DaemonProcess.start(shortcuts, folder: Self.tick, grace: "2s")
            ]
            // Until both have scheduled (or died), so that SIGTERM finds their handlers installed.
            for daemon in pair { _ = try? await daemon.waitForLog("scheduling") }
            for daemon in pair { daemon.terminate() }
            let statuses = try await detached { pair.map { $0.waitForExit() } }
            if statuses != [0, 0] {
                failures.append(
                    "round \(round): \(statuses)\n"
                        + pair.map(\.log).joined(separator: "\n").split(separator: "\n").filter { !$0.contains(" info ") }.joined(separator: "\n"))
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// A unix datagram socket bound by the test, standing for systemd's `NOTIFY_SOCKET`.
final class NotifySocket {
    let path = "/tmp/notify-\(UUID().uuidString.prefix(8)).sock"
    private let descriptor: Int32

    init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, or `nil` after `timeout` seconds.
    func receive(timeout: Int32) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout * 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}

/// A `shortcuts daemon` process, its log being what it writes to standard error.
final class DaemonProcess: Sendable {
    let program: BackgroundProgram

    static func start(
        _ shortcuts: ShortcutsBinary, folder: String, grace: String, arguments: [String] = [],
        environment extra: [String: String] = [:]
    ) throws -> DaemonProcess {
        var environment: [String: String?] = ["JOURNAL_STREAM": nil, "NOTIFY_SOCKET": nil]
        for (name, value) in extra { environment[name] = value }
        return DaemonProcess(
            program: try shortcuts.start(["daemon", "--workflows", folder, "--grace", grace] + arguments, environment: environment))
    }

    private init(program: BackgroundProgram) {
        self.program = program
    }

    var pid: Int32 { program.pid }
    var log: String { program.errorSoFar }
    var isRunning: Bool { program.isRunning }

    /// Waits, woken by each line it logs, until its log contains `text`.
    @discardableResult
    func waitForLog(_ text: String) async throws -> String {
        try await program.waitForOutput("“\(text)”") { $0.contains(text) }
    }

    func kill(_ signal: Int32) {
        program.signal(signal)
        _ = program.waitBlocking()
    }

    /// Sends SIGTERM and waits for the exit status.
    func stop() -> Int32 {
        terminate()
        return waitForExit()
    }

    /// Sends SIGTERM.
    func terminate() {
        program.signal(SIGTERM)
    }

    /// Waits for the process to exit and returns its status.
    func waitForExit() -> Int32 {
        program.waitBlocking().status
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
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: home.appendingPathComponent(file).path, configuration: configuration).read(body)
    }

    /// Every claim, in the order they were made.
    func claims() throws -> [ClaimRow] {
        try read { try ClaimRow.fetchAll($0, sql: "SELECT * FROM claim ORDER BY id") }
    }

    /// Every run the daemons recorded.
    func runs() throws -> [RunRow] {
        try read("runs.sqlite") { try RunRow.fetchAll($0, sql: "SELECT * FROM run WHERE trigger = 'automation'") }
    }

    /// Checks a condition on one of the daemon's files each time a file of its home changes,
    /// on the calling thread, until it holds; `reason` says why the last read failed, if it did.
    func poll(_ file: String = "automations.sqlite", _ condition: (Database) throws -> Bool) -> (held: Bool, reason: String) {
        var lastError: (any Error)?
        let held =
            (try? eventuallyBlocking(watching: [.folder(home)]) {
                guard FileManager.default.fileExists(atPath: home.appendingPathComponent(file).path) else { return false }
                do {
                    return try read(file, condition)
                } catch {
                    lastError = error
                    return false
                }
            }) ?? false
        return (held, lastError.map { "; the last read failed: \($0)" } ?? "")
    }

    /// Waits for a condition on `automations.sqlite` (see ``poll(_:_:)``) on a thread
    /// outside Swift's cooperative pool, which tests that block its threads would stall.
    func waitFor(
        _ what: String, log: @autoclosure () -> String = "",
        _ condition: @escaping @Sendable (Database) throws -> Bool
    ) async throws {
        let result = try await detached { self.poll { try condition($0) } }
        if !result.held { Issue.record("timed out waiting for \(what)\(result.reason)\n\(log())") }
    }
}

extension DaemonCommandTests {
    @Test("automations list shows the zero-offset zone as UTC, in the table and in JSON")
    func universalTimeIsCalledUTC() async throws {
        let shortcuts = try ShortcutsBinary()
        let folder = shortcuts.home.appendingPathComponent("Universal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        name: Nightly
        automation:
          schedule: "0 3 * * *"
          timeZone: UTC
        steps:
          - show: night
        """.write(to: folder.appendingPathComponent("nightly.yaml"), atomically: true, encoding: .utf8)
        let list = try await shortcuts.run(["automations", "list", "--workflows", folder.path])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("0 3 * * * (UTC)"), "\(list.output)")
        #expect(!list.output.contains("GMT"))
        let json = try await shortcuts.run(["automations", "list", "--workflows", folder.path, "--json"])
        let automations = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(automations.first?["timeZone"] as? String == "UTC")
    }
}

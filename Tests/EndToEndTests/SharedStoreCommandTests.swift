import Foundation
import ShortcutsSystemTestSupport
import Testing

/// The commands that choose their store (`--database`, `SHORTCUTS_DATABASE_URL`): `daemons list`,
/// `runs`, `automations list` and `automations run` on a PostgreSQL database shared by homes
/// that stand for machines, and their errors.
@Suite("Shared store commands", .serialized, .endToEnd)
struct SharedStoreCommandTests {
    static let tick = DaemonCommandTests.tick

    /// The daemons `daemons list --json` shows, by pid.
    struct DaemonRow: Decodable {
        var id: String
        var host: String
        var pid: Int32
        var state: String
        var epoch: Int64
        var settledBy: String?
        var running: Int
        var claimsPerMinute: Int
    }

    static func daemons(_ shortcuts: ShortcutsBinary, _ environment: [String: String?] = [:]) async throws -> [DaemonRow] {
        let listed = try await shortcuts.run(["daemons", "list", "--json"], environment: environment)
        guard listed.status == 0 else { throw ListingFailed(message: listed.error) }
        return try JSONDecoder().decode([DaemonRow].self, from: Data(listed.output.utf8))
    }

    struct ListingFailed: Error {
        var message: String
    }

    /// Asks `daemons list` again each time the daemons' database changes (the SQLite files in
    /// the home, or a commit on the shared server) until `condition` holds; returns the last
    /// listing.
    static func waitForDaemons(
        _ shortcuts: ShortcutsBinary, _ environment: [String: String?] = [:], until condition: @escaping @Sendable ([DaemonRow]) -> Bool
    ) async throws -> [DaemonRow] {
        var last: [DaemonRow] = []
        let changes: ChangeSource =
            environment["SHORTCUTS_DATABASE_URL"] == nil ? .folder(shortcuts.home) : .commits(on: try PostgresServer.shared())
        _ = try await eventually(watching: [changes]) {
            last = (try? await daemons(shortcuts, environment)) ?? []
            return condition(last)
        }
        return last
    }

    static var hostName: String { ProcessInfo.processInfo.hostName }

    @Test("A URL that is not PostgreSQL, and a server that cannot be reached: the error names the URL without its password")
    func badDatabaseURLs() async throws {
        let shortcuts = try ShortcutsBinary()
        let notPostgres = try await shortcuts.run(["runs", "list", "--database", "mysql://ada:hunter2@db.internal/shortcuts"])
        #expect(notPostgres.status == 1)
        #expect(notPostgres.error.contains("error: --database 'mysql://ada@db.internal/shortcuts' is not a PostgreSQL URL"), "\(notPostgres.error)")
        #expect(notPostgres.error.contains("help: write it postgres://USER:PASSWORD@HOST:5432/DATABASE"))

        let unreachable = try await shortcuts.run(
            ["daemons", "list"], environment: ["SHORTCUTS_DATABASE_URL": "postgres://ada:hunter2@127.0.0.1:1/shortcuts"])
        #expect(unreachable.status == 1)
        #if PostgreSQL
            #expect(
                unreachable.error.contains("error: cannot use the PostgreSQL database postgres://ada@127.0.0.1:1/shortcuts: "), "\(unreachable.error)"
            )
            #expect(unreachable.error.contains("help: the URL comes from SHORTCUTS_DATABASE_URL"))
        #else
            #expect(unreachable.error.contains("but this build of shortcuts has no PostgreSQL support"), "\(unreachable.error)")
            #expect(unreachable.error.contains("help: build shortcuts with PostgreSQL support: swift build --traits PostgreSQL"))
        #endif
        for result in [notPostgres, unreachable] {
            #expect(!result.error.contains("hunter2") && !result.output.contains("hunter2"), "the password is never printed")
        }
        #expect(!FileManager.default.fileExists(atPath: shortcuts.home.appendingPathComponent("runs.sqlite").path))
    }

    @Test("daemons list on the SQLite files: the live daemon with its host and pid, then stopped")
    func daemonsListOnSQLite() async throws {
        let shortcuts = try ShortcutsBinary()
        let empty = try await shortcuts.run(["daemons", "list"])
        #expect(empty.status == 0)
        #expect(empty.output.contains("No daemon has run on \(shortcuts.home.path)/automations.sqlite."), "\(empty.output)")

        let daemon = try DaemonProcess.start(shortcuts, folder: Self.tick, grace: "5s")
        let pid = daemon.pid
        let alive = try await Self.waitForDaemons(shortcuts) { rows in
            rows.contains { $0.pid == pid && $0.state == "alive" && $0.claimsPerMinute > 0 }
        }
        let row = try #require(alive.first { $0.pid == pid }, "\(alive)\n\(daemon.log)")
        #expect(row.state == "alive" && row.host == Self.hostName)
        let table = try await shortcuts.run(["daemons", "list"])
        #expect(table.output.hasPrefix("ID"), "\(table.output)")
        for column in ["HOST", "PID", "STATE", "SINCE", "RENEWED", "RUNNING", "CLAIMS/MIN"] { #expect(table.output.contains(column)) }
        #expect(table.output.contains(String(row.id.prefix(8))) && table.output.contains(" alive "), "\(table.output)")

        let status = try await detached { daemon.stop() }
        #expect(status == 0, "\(daemon.log)")
        let after = try await Self.daemons(shortcuts)
        #expect(after.first { $0.pid == pid }?.state == "stopped", "\(after)")
    }

    @Test(
        "Two daemons on one PostgreSQL database, each with its own home: both alive; one killed is dead, then taken over by the other",
        .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
    func daemonsListShared() async throws {
        let url = try PostgresServer.shared().makeDatabase()
        let shared: [String: String] = ["SHORTCUTS_DATABASE_URL": url]
        let machines = try [ShortcutsBinary(), ShortcutsBinary()]
        let daemons = try machines.map { machine in
            try DaemonProcess.start(machine, folder: Self.tick, grace: "5s", arguments: ["--lease", "2s"], environment: shared)
        }
        defer { for daemon in daemons { daemon.kill(SIGKILL) } }
        let observer = try ShortcutsBinary()
        let pids = daemons.map(\.pid)
        let both = try await Self.waitForDaemons(observer, shared) { rows in
            pids.allSatisfy { pid in rows.contains { $0.pid == pid && $0.state == "alive" } }
        }
        #expect(pids.allSatisfy { pid in both.contains { $0.pid == pid && $0.state == "alive" } }, "\(both)\n\(daemons.map(\.log))")
        #expect(Set(both.map(\.epoch)).count == both.count, "each registration has its own epoch")
        #expect(try await Self.daemons(observer).isEmpty, "the observer's own SQLite files know no daemon")

        let killed = Date()
        try await detached { daemons[0].kill(SIGKILL) }
        let survivor = try #require(both.first { $0.pid == pids[1] })
        let after = try await Self.waitForDaemons(observer, shared) { rows in
            rows.contains { $0.pid == pids[0] && $0.state == "dead, taken over" }
        }
        let dead = try #require(after.first { $0.pid == pids[0] }, "\(after)")
        #expect(dead.state == "dead, taken over", "\(after)\n\(daemons[1].log)")
        #expect(dead.settledBy == survivor.id)
        #expect(Date().timeIntervalSince(killed) < 2 + 10, "taken over within the 2 s lease and a few heartbeats")
        let table = try await observer.run(["daemons", "list", "--database", url])
        #expect(table.output.contains("dead, taken over") && table.output.contains("alive"), "\(table.output)")

        let status = try await detached { daemons[1].stop() }
        #expect(status == 0, "\(daemons[1].log)")
        let final = try await Self.daemons(observer, shared)
        #expect(final.first { $0.pid == pids[1] }?.state == "stopped", "\(final)\n\(daemons[1].log)")
    }

    @Test(
        "run records in the shared database; runs list and runs show read it from another home, the SQLite files do not",
        .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
    func runsShared() async throws {
        let url = try PostgresServer.shared().makeDatabase()
        let here = try ShortcutsBinary()
        let there = try ShortcutsBinary()
        let ran = try await here.run(["run", "\(Self.tick)/tick.yaml", "--database", url])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output == "tick\ntock\n", "\(ran.output)")
        #expect(!FileManager.default.fileExists(atPath: here.home.appendingPathComponent("runs.sqlite").path))

        let listed = try await there.run(["runs", "list", "--json"], environment: ["SHORTCUTS_DATABASE_URL": url])
        #expect(listed.status == 0, "\(listed.error)")
        let runs = try #require(JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run["status"] as? String == "succeeded" && run["trigger"] as? String == "manual" && run["output"] as? String == "tock")
        let id = try #require(run["id"] as? String)

        let shown = try await there.run(["runs", "show", String(id.prefix(8)), "--database", url])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.hasPrefix("Run \(id)  Tick"), "\(shown.output)")
        #expect(shown.output.contains("succeeded") && shown.output.contains("output: \"tock\""))

        let automationRuns = try await there.run(["runs", "list", "--trigger", "automation", "--database", url])
        #expect(automationRuns.output == "No runs match these filters.\n", "\(automationRuns.output)")
        let local = try await there.run(["runs", "list"])
        #expect(local.output == "No runs recorded yet.\n", "without the URL, the SQLite files of the home")
        let missing = try await there.run(["runs", "show", "ffffffff", "--database", url])
        #expect(missing.status == 1 && missing.error.contains("no run 'ffffffff'"))
    }

    @Test(
        "automations run: with no live daemon it runs here; with one, it is queued and a daemon runs it; --here runs here; automations list reads the shared claims",
        .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
    func automationsRunThroughTheQueue() async throws {
        let url = try PostgresServer.shared().makeDatabase()
        let shared: [String: String] = ["SHORTCUTS_DATABASE_URL": url]
        let client = try ShortcutsBinary()
        let command = ["automations", "run", "Tick", "--workflows", Self.tick]

        let alone = try await client.run(command + ["--database", url])
        #expect(alone.status == 0, "\(alone.error)")
        #expect(alone.error.contains("no live daemon on postgres://postgres@127.0.0.1:"), "\(alone.error)")
        #expect(alone.output == "tick\ntock\n", "\(alone.output)")

        let machine = try ShortcutsBinary()
        let daemon = try DaemonProcess.start(machine, folder: Self.tick, grace: "5s", environment: shared)
        defer { daemon.kill(SIGKILL) }
        let pid = daemon.pid
        _ = try await Self.waitForDaemons(client, shared) { rows in rows.contains { $0.pid == pid && $0.state == "alive" } }

        let queued = try await client.run(command + ["--json"], environment: shared)
        #expect(queued.status == 0, "\(queued.error)\n\(daemon.log)")
        #expect(queued.error.contains("queued as request "), "\(queued.error)")
        let result = try #require(JSONSerialization.jsonObject(with: Data(queued.output.utf8)) as? [String: Any], "\(queued.output)")
        #expect(result["status"] as? String == "succeeded" && result["output"] as? String == "tock", "\(result)")
        let runID = try #require((result["runIDs"] as? [String])?.first)
        let recorded = try await client.run(["runs", "show", runID, "--json", "--database", url])
        let run = try #require(
            (JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [String: Any])?["run"] as? [String: Any], "\(recorded.error)")
        #expect(run["trigger"] as? String == "manual" && run["status"] as? String == "succeeded", "the daemon ran it: \(run)")

        let here = try await client.run(command + ["--here"], environment: shared)
        #expect(here.status == 0 && here.output == "tick\ntock\n" && !here.error.contains("queued"), "\(here.error)")

        let listed = try await client.run(["automations", "list", "--workflows", Self.tick, "--json", "--database", url])
        let rows = try #require(JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.error)")
        #expect(rows.first?["lastDue"] is String && rows.first?["lastStatus"] is String, "the daemon's claims: \(rows)")
        let local = try await client.run(["automations", "list", "--workflows", Self.tick, "--json"])
        let localRows = try #require(JSONSerialization.jsonObject(with: Data(local.output.utf8)) as? [[String: Any]])
        #expect(localRows.first?["lastDue"] == nil, "the SQLite files of the client's home have no claim")

        let status = try await detached { daemon.stop() }
        #expect(status == 0, "\(daemon.log)")
    }
}

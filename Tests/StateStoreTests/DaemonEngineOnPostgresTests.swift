import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import StateStorage
import Testing
import WorkflowKit

@testable import AutomationKit

#if PostgreSQL
    import PostgresStorage
#endif

/// Two daemons in this process on one PostgreSQL database, each with its own home, as if on
/// two machines: every due time claimed once, runs spread over both, overlap held across
/// them, and a dead daemon's claims settled once its lease expires.
@Suite("Daemon engine on PostgreSQL", .serialized, .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
struct DaemonEngineOnPostgresTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("daemons-pg-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }

    private func write(_ name: String, _ yaml: String) throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Stores on a database of the shared server, opened as a daemon of another machine would.
    private func stores(_ url: String) throws -> DaemonStores {
        #if PostgreSQL
            let database = try PostgresStateDatabase(url: url, migrations: AutomationStore.postgresMigrations + RunHistory.postgresMigrations)
            return DaemonStores(automations: try AutomationStore(database: database), history: try RunHistory(database: database))
        #else
            throw PostgresServerError(message: "needs a build with PostgreSQL support")
        #endif
    }

    private func daemon(_ url: String, name: String, lease: Duration = .seconds(2)) throws -> AutomationDaemon {
        var configuration = AutomationDaemon.Configuration(
            workflows: workflows, catalog: IntentCatalog(apps: []), home: root.appendingPathComponent(name), grace: .seconds(2),
            watchesFolder: false)
        configuration.stores = try stores(url)
        configuration.lease = lease
        return AutomationDaemon(configuration)
    }

    private func rows(_ url: String, _ sql: String) throws -> [SQLRow] {
        #if PostgreSQL
            let database = try PostgresStateDatabase(url: url, migrations: [])
            return try database.read { try $0.rows(sql, []) }
        #else
            return []
        #endif
    }

    @Test("Two daemons claim each due time once, spread the runs, and hold overlap: skip across them")
    func exactlyOnceAndSpread() async throws {
        for index in 1...4 {
            try write("tick\(index).yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: tick } ]\n")
        }
        try write("slow.yaml", "automation: { schedule: '* * * * * *', overlap: skip }\nsteps: [ { wait: 1500ms } ]\n")
        let url = try PostgresServer.shared().makeDatabase()
        let first = try daemon(url, name: "first")
        let second = try daemon(url, name: "second")
        try first.start()
        try second.start()
        // Until five due times of each tick were claimed and the slow automation ran twice and
        // skipped a due time, woken by each commit.
        _ = try await eventually(watching: [.commits(on: try PostgresServer.shared())]) {
            let ticks = try rows(url, "SELECT count(*) AS count FROM claim WHERE automationKey LIKE 'tick%'").first?.integer("count") ?? 0
            let slow = try rows(url, "SELECT status, startedAt FROM claim WHERE automationKey = 'slow.yaml'")
            return ticks >= 4 * 5 && slow.filter { $0.real("startedAt") != nil }.count >= 2 && slow.contains { $0.text("status") == "skipped" }
        }
        await first.stop()
        await second.stop()

        let claims = try rows(url, "SELECT automationKey, dueTime, status, daemonID, runID, startedAt, endedAt FROM claim ORDER BY dueTime")
        let pairs = claims.map { "\($0.text("automationKey") ?? "") \($0.integer("dueTime") ?? 0)" }
        #expect(Set(pairs).count == pairs.count, "each due time claimed once")
        let ticks = claims.filter { $0.text("automationKey")?.hasPrefix("tick") == true }
        #expect(ticks.count >= 4 * 5)
        for key in (1...4).map({ "tick\($0).yaml" }) {
            let times = ticks.filter { $0.text("automationKey") == key }.compactMap { $0.integer("dueTime") }.sorted()
            #expect(times.count == Int((times.last ?? 0) - (times.first ?? 0)) + 1, "\(key): every second once, no hole: \(times)")
        }
        // The due times are spread by who claims them; how many of the runs ended by the stop
        // depends on how busy the machine is.
        let owners = Dictionary(grouping: ticks, by: { $0.text("daemonID") ?? "" })
        #expect(owners.count == 2, "due times spread over both daemons")
        #expect(owners.values.allSatisfy { $0.count >= ticks.count / 10 }, "\(owners.mapValues(\.count))")
        #expect(ticks.contains { $0.text("status") == "succeeded" })

        let slow = claims.filter { $0.text("automationKey") == "slow.yaml" && $0.real("startedAt") != nil }
            .sorted { ($0.real("startedAt") ?? 0) < ($1.real("startedAt") ?? 0) }
        #expect(slow.count >= 2)
        #expect(
            !zip(slow, slow.dropFirst()).contains { earlier, later in (later.real("startedAt") ?? 0) < (earlier.real("endedAt") ?? .infinity) },
            "never two runs of an overlap: skip automation at once, whichever daemon ran them")
        #expect(claims.contains { $0.text("automationKey") == "slow.yaml" && $0.text("status") == "skipped" })
        let runs = try rows(url, "SELECT id, status FROM run")
        #expect(
            Set(runs.compactMap { $0.text("id") }).isSuperset(of: ticks.filter { $0.text("status") == "succeeded" }.compactMap { $0.text("runID") }))
    }

    @Test("A daemon whose lease expired has its running claims and their runs interrupted by a live one")
    func takeOver() async throws {
        try write("tick.yaml", "automation: { schedule: '* * * * * *' }\nsteps: [ { show: tick } ]\n")
        let url = try PostgresServer.shared().makeDatabase()
        // A daemon that claims a due time and then stops renewing its lease, as a killed one would.
        let dead = try stores(url)
        let lease = try dead.automations.register(
            DaemonRegistration(id: "dead-daemon", pid: 1, host: "elsewhere", workflows: workflows.path, leaseDuration: .milliseconds(500)))
        let claimed = try dead.automations.claim(
            [ClaimRequest(automationKey: "other.yaml", dueTime: 1_800_000_000, overlap: .parallel, runID: UUID().uuidString.lowercased())],
            lease: lease)
        guard case .claimed(let claim, _)? = claimed.first else {
            Issue.record("the dead daemon's claim was not made: \(claimed)")
            return
        }
        #expect(claim.status == .running)

        let live = try daemon(url, name: "live", lease: .seconds(1))
        try live.start()
        var status: String?
        var run: SQLRow?
        try await eventually(watching: [.commits(on: try PostgresServer.shared())]) {
            status = try rows(url, "SELECT status FROM claim WHERE automationKey = 'other.yaml'").first?.text("status")
            run = try rows(url, "SELECT * FROM run WHERE id = '\(claim.runID ?? "")'").first
            return status == "interrupted" && run != nil
        }
        await live.stop()
        #expect(status == "interrupted")
        // The dead daemon claimed the run but did not record its start: the history has it now.
        #expect(run?.text("status") == "interrupted" && run?.text("workflow") == "other.yaml" && run?.text("trigger") == "automation")
        #expect(run?.text("error") == "interrupted: the daemon with pid 1 on elsewhere stopped while it ran (killed or crashed)")
        let daemons = try stores(url).automations.daemons()
        #expect(daemons.first { $0.id == "dead-daemon" }?.settledBy == live.identifier)
    }
}

import AutomationKit
import Foundation
import IntentKit
import LibraryApp
import PostgresStorage
import ScratchPostgres
import StateStorage
import Synchronization
import WorkflowKit

/// Daemons sharing one PostgreSQL database against one daemon on the SQLite store, on this
/// machine, in this process:
///
/// 1. writes `automations` workflow files that run every second;
/// 2. runs one daemon on the SQLite files of a fresh home for `seconds` (the baseline);
/// 3. starts a PostgreSQL server in a temporary folder, and for 1, 2 and 3 daemons — each with
///    its own home and its own connections, as on separate machines — runs them on a fresh
///    database for `seconds`;
/// 4. for each, from the claims whose due time is in the measured window (after a warm-up):
///    claims per second, lateness from the due time to the claim's commit (`claimedAt`) and to
///    the run's start (`startedAt`), p50 and p99, due times not claimed, the share of each daemon;
///    and the ratios to the SQLite baseline.
///
///     swift run -c release --traits PostgreSQL shortcuts-bench daemons-pg [seconds] [automations]
enum MultiDaemonBenchmark {
    /// The databases the daemons used, open until the process exits.
    static let openDatabases = Mutex<[any StateDatabase]>([])

    struct Measurement {
        var label: String
        var claimsPerSecond: Double
        var claimLateness: [Double]
        var runLateness: [Double]
        /// Due times in the window with no claim.
        var unclaimed: Int
        /// Claims in the window by daemon, largest first.
        var shares: [Int]
    }

    static func run(arguments: [String]) async throws {
        let seconds = arguments.first.flatMap(Double.init) ?? 20
        let total = arguments.dropFirst().first.flatMap(Int.init) ?? 200
        guard PostgresSupport.isBuiltIn else {
            print(
                "daemons-pg needs PostgreSQL support: \(PostgresSupport.rebuildHint) (swift run -c release --traits PostgreSQL shortcuts-bench daemons-pg)"
            )
            exit(64)
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-bench-daemons-\(UUID().uuidString)")
        let workflows = root.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<total {
            try DaemonBenchmark.pulse(index, enabled: true)
                .write(to: workflows.appendingPathComponent(DaemonBenchmark.pulseName(index)), atomically: true, encoding: .utf8)
        }
        print(
            "daemons-pg: \(total) every-second automations, \(String(format: "%.0f", seconds)) s measured per configuration "
                + "after a 3 s warm-up; SQLite (one daemon, the baseline) vs 1, 2 and 3 daemons on one PostgreSQL")

        var results: [Measurement] = []
        let sqliteHome = root.appendingPathComponent("sqlite-home")
        results.append(
            try await measure(
                label: "SQLite, 1 daemon", daemons: 1, seconds: seconds, automations: total, workflows: workflows,
                homes: { _ in sqliteHome }, stores: { _ in nil },
                reader: {
                    try SQLiteStateDatabase(
                        path: sqliteHome.appendingPathComponent("automations.sqlite").path, readOnly: true, migrator: .init())
                }))
        #if PostgreSQL
            let server = try PostgresServer.start()
            defer { server.stop(removingFiles: true) }
            for count in 1...3 {
                let url = try server.makeDatabase()
                let migrations = AutomationStore.postgresMigrations + RunHistory.postgresMigrations
                results.append(
                    try await measure(
                        label: "PostgreSQL, \(count) daemon\(count == 1 ? "" : "s")", daemons: count, seconds: seconds, automations: total,
                        workflows: workflows, homes: { root.appendingPathComponent("pg\(count)-home-\($0)") },
                        stores: { _ in
                            let database = try PostgresStateDatabase(url: url, migrations: migrations)
                            openDatabases.withLock { $0.append(database) }
                            return DaemonStores(automations: try AutomationStore(database: database), history: try RunHistory(database: database))
                        },
                        reader: {
                            let database = try PostgresStateDatabase(url: url, migrations: [])
                            openDatabases.withLock { $0.append(database) }
                            return database
                        }))
            }
        #endif
        report(results)
    }

    /// Runs `daemons` daemons on the folder for the warm-up plus `seconds`, stops them, and reads
    /// the claims of the measured window.
    static func measure(
        label: String, daemons count: Int, seconds: Double, automations: Int, workflows: URL, homes: (Int) -> URL,
        stores: (Int) throws -> DaemonStores?, reader: () throws -> any StateDatabase
    ) async throws -> Measurement {
        var daemons: [AutomationDaemon] = []
        for index in 0..<count {
            var configuration = AutomationDaemon.Configuration(
                workflows: workflows, catalog: IntentCatalog(apps: [LibraryApp.app]), home: homes(index), grace: .seconds(5),
                watchesFolder: false)
            configuration.stores = try stores(index)
            daemons.append(AutomationDaemon(configuration))
        }
        for daemon in daemons { try daemon.start() }
        let windowStart = (Date().timeIntervalSince1970 + 3).rounded(.up)
        let windowEnd = windowStart + seconds.rounded()
        try await Task.sleep(for: .seconds(windowEnd - Date().timeIntervalSince1970 + 1))
        for daemon in daemons { await daemon.stop() }

        let database = try reader()
        let window: [SQLValue] = [.integer(Int64(windowStart)), .integer(Int64(windowEnd))]
        return try database.read { connection in
            let claims = try connection.rows(
                "SELECT daemonID, claimedAt - dueTime AS claimLateness, startedAt - dueTime AS runLateness FROM claim "
                    + "WHERE dueTime >= ? AND dueTime < ?", window)
            var shares: [String: Int] = [:]
            for claim in claims { shares[claim.text("daemonID") ?? "", default: 0] += 1 }
            let expected = automations * Int(windowEnd - windowStart)
            return Measurement(
                label: label, claimsPerSecond: Double(claims.count) / (windowEnd - windowStart),
                claimLateness: claims.compactMap { $0.real("claimLateness") }.sorted(),
                runLateness: claims.compactMap { $0.real("runLateness") }.sorted(),
                unclaimed: max(0, expected - claims.count), shares: shares.values.sorted(by: >))
        }
    }

    static func report(_ results: [Measurement]) {
        guard let baseline = results.first else { return }
        print(
            "  | store | claims/s | × SQLite | claim lateness p50 / p99 | run lateness p50 / p99 | × SQLite (run p99) | unclaimed | claims per daemon |"
        )
        print("  |---|---|---|---|---|---|---|---|")
        for result in results {
            let runP99 = Percentile.milliseconds(0.99, of: result.runLateness)
            let figures = String(
                format: "%.0f | %.2f | %.1f / %.1f ms | %.1f / %.1f ms | %.2f | %d", result.claimsPerSecond,
                result.claimsPerSecond / baseline.claimsPerSecond, Percentile.milliseconds(0.5, of: result.claimLateness),
                Percentile.milliseconds(0.99, of: result.claimLateness), Percentile.milliseconds(0.5, of: result.runLateness), runP99,
                runP99 / Percentile.milliseconds(0.99, of: baseline.runLateness), result.unclaimed)
            print("  | \(result.label) | \(figures) | \(result.shares.map(String.init).joined(separator: " / ")) |")
        }
    }
}

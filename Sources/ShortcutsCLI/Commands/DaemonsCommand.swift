import ArgumentParser
import AutomationKit
import Clockwork
import Foundation
import IntentKit

struct DaemonsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemons",
        abstract: "Show the daemons that share this state: which are alive, since when, and how busy.",
        subcommands: [List.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the daemons of the configured store, live ones first.",
            discussion: """
                Columns: ID (the start of the daemon's id), HOST, PID, STATE (alive: its lease is current; dead: its lease \
                ran out, and "taken over" once another daemon settled its runs; stopped: it stopped cleanly), SINCE (when it \
                started), RENEWED (its latest lease renewal, by the database's clock), RUNNING (its runs now), CLAIMS/MIN (due \
                times it claimed in the last minute). With --json: an array of daemons with every field. Reads \
                $SHORTCUTS_DATABASE_URL (or --database), else the SQLite files of $SHORTCUTS_HOME.
                Example: SHORTCUTS_DATABASE_URL=postgres://shortcuts@db/shortcuts shortcuts daemons list
                """)

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        struct Row: Encodable {
            var id: String
            var host: String
            var pid: Int
            var state: String
            var epoch: Int64
            var workflows: String
            var startedAt: Date
            var renewedAt: Date?
            var leaseExpiresAt: Date?
            var stoppedAt: Date?
            var settledAt: Date?
            var settledBy: String?
            var running: Int
            var claimsPerMinute: Int
        }

        static func state(of daemon: DaemonInfo) -> String {
            if daemon.stoppedAt != nil { return "stopped" }
            if daemon.isAlive { return "alive" }
            return daemon.settledAt != nil ? "dead, taken over" : "dead"
        }

        func run() async throws {
            let daemons: [DaemonInfo]
            do {
                daemons = try StateStores.automations(store.source).daemons()
            } catch {
                throw CommandLineError(error)
            }
            let order = ["alive": 0, "dead": 1, "dead, taken over": 2, "stopped": 3]
            let sorted = daemons.sorted { first, second in
                let (a, b) = (order[Self.state(of: first)] ?? 4, order[Self.state(of: second)] ?? 4)
                return a != b ? a < b : first.startedAt > second.startedAt
            }
            let rows = sorted.map { daemon in
                Row(
                    id: daemon.id, host: daemon.host, pid: daemon.pid, state: Self.state(of: daemon), epoch: daemon.epoch,
                    workflows: daemon.workflows, startedAt: daemon.startedAt, renewedAt: daemon.renewedAt,
                    leaseExpiresAt: daemon.leaseExpiresAt, stoppedAt: daemon.stoppedAt, settledAt: daemon.settledAt,
                    settledBy: daemon.settledBy, running: daemon.running, claimsPerMinute: daemon.claimedLastMinute)
            }
            if json {
                AutomationListing.printJSON(rows)
                return
            }
            guard !rows.isEmpty else {
                print(
                    "No daemon has run on \(store.source?.shownURL ?? ShortcutsHome.directory().appendingPathComponent("automations.sqlite").path).")
                return
            }
            let now = TaskClock.current.now()
            Table.print(
                [["ID", "HOST", "PID", "STATE", "SINCE", "RENEWED", "RUNNING", "CLAIMS/MIN"]]
                    + rows.map { row in
                        [
                            String(row.id.prefix(8)), row.host, String(row.pid), row.state, row.startedAt.formatted(.iso8601),
                            row.renewedAt.map { Self.ago($0, now: now) } ?? "—", String(row.running), String(row.claimsPerMinute)
                        ]
                    })
        }

        /// `4 s ago`, `3 min ago`, `2 h ago`, `5 d ago`.
        static func ago(_ date: Date, now: Date) -> String {
            let seconds = max(0, now.timeIntervalSince(date))
            if seconds < 120 { return "\(Int(seconds)) s ago" }
            if seconds < 7200 { return "\(Int(seconds / 60)) min ago" }
            if seconds < 172_800 { return "\(Int(seconds / 3600)) h ago" }
            return "\(Int(seconds / 86400)) d ago"
        }
    }
}

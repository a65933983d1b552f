#if PostgreSQL
    import Foundation
    import PostgresStorage
    import ShortcutsSystemTestSupport
    import StateStorage
    import Testing

    @testable import AutomationKit

    @Suite(
        "Automation store behaviour on PostgreSQL", .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason), .timeLimit(.minutes(2)),
        .onThreadOfItsOwn)
    struct AutomationStoreOnPostgresTests {
        @Test("Three daemons claiming the same due times at once, each with its own store, get each one exactly once")
        func exactlyOnce() throws { try AutomationStoreBehaviour(place: .postgres()).exactlyOnce() }

        @Test("A daemon taken over after its lease expired is fenced out: no claim, start, ending or renewal")
        func fencing() throws { try AutomationStoreBehaviour(place: .postgres()).fencing() }

        @Test("Three daemons taking over one expired daemon at once: one of them gets its claims")
        func takeOverOnce() throws { try AutomationStoreBehaviour(place: .postgres()).takeOverOnce() }

        @Test("overlap: skip, queue and replace hold across two daemons' runs")
        func globalOverlap() throws { try AutomationStoreBehaviour(place: .postgres()).globalOverlap() }

        @Test("A queued claim is promoted only when no run of its automation goes and no earlier due time waits")
        func promotions() throws { try AutomationStoreBehaviour(place: .postgres()).promotions() }

        @Test("Three daemons taking run requests at once take each one once")
        func runRequests() throws { try AutomationStoreBehaviour(place: .postgres()).runRequests() }

        @Test("Run requests taken by a daemon that is taken over become interrupted")
        func runRequestsOfTakenOverDaemon() throws { try AutomationStoreBehaviour(place: .postgres()).runRequestsOfTakenOverDaemon() }

        @Test("A claim retried after an uncertain commit is adopted by its daemon, and lost to others")
        func uncertainCommitAdoption() throws { try AutomationStoreBehaviour(place: .postgres()).uncertainCommitAdoption() }

        @Test("Leases expire by the database's clock, and a renewal before a takeover keeps the daemon")
        func expiry() throws { try AutomationStoreBehaviour(place: .postgres()).expiry() }

        @Test("The claims of a window of due times come earliest first, with when each run started")
        func claimsInWindow() throws { try AutomationStoreBehaviour(place: .postgres()).claimsInWindow() }

        @Test("A database opened without the store's migrations is refused, with the fix")
        func missingMigrations() throws {
            let database = try PostgresStateDatabase(url: try PostgresServer.shared().makeDatabase(), migrations: [])
            #expect {
                try AutomationStore(database: database)
            } throws: { error in
                (error as? StateDatabaseError)?.description.contains("help: open the database with AutomationStore.postgresMigrations") == true
            }
        }
    }

    extension StorePlace {
        /// A new database on the test process's PostgreSQL server. Its leases expire by the
        /// server's clock, which no test can move: expiring sets back, by twice their length, the
        /// expiry of the short leases not yet settled, as that clock passing them would.
        static func postgres() throws -> StorePlace {
            let url = try PostgresServer.shared().makeDatabase()
            let lease = Duration.seconds(600)
            @Sendable func database() throws -> PostgresStateDatabase {
                try PostgresStateDatabase(url: url, migrations: AutomationStore.postgresMigrations)
            }
            return StorePlace(
                store: { try AutomationStore(database: database()) }, shortLease: lease,
                expireShortLeases: {
                    do {
                        _ = try database().write { connection in
                            try connection.execute(
                                "UPDATE daemon SET leaseExpiresAt = leaseExpiresAt - 2 * leaseSeconds WHERE leaseSeconds = ? AND settledAt IS NULL",
                                [.real(lease.timeInterval)])
                        }
                    } catch {
                        Issue.record("the short leases could not be expired: \(error)")
                    }
                })
        }
    }
#endif

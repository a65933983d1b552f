#if PostgreSQL
    import Clockwork
    import Foundation
    import Logging
    import StateStorage

    /// A few connections to one database, opened when first needed and kept for the next
    /// caller; a lost one is closed and replaced on the next lease.
    ///
    /// While the server cannot be reached, leases fail at once: a failed connection attempt is
    /// remembered for ``Settings/failureMemory`` and every lease in that time throws its error
    /// instead of trying again, so callers never queue up behind connect timeouts.
    final class PostgresConnectionPool: @unchecked Sendable {
        struct Settings: Sendable {
            /// The most connections open at once.
            var maximumConnections = 4
            /// How long opening a connection (TCP, TLS, login) may take.
            var connectTimeout: Duration = .seconds(2)
            /// How long one statement may go unanswered before its connection is closed.
            var requestTimeout: Duration = .seconds(20)
            /// How long a failed connection attempt answers for the next leases.
            var failureMemory: TimeInterval = 0.25
            /// How long a lease waits for a busy connection to come back.
            var leaseTimeout: TimeInterval = 30
            /// Server settings of each session: a transaction its client left open (a paused
            /// process) ends after 10 seconds, so it cannot hold row locks that other daemons wait for.
            var sessionSettings: [(String, String)] = [("idle_in_transaction_session_timeout", "10s")]
        }

        let endpoint: PostgresEndpoint
        let settings: Settings
        let logger: Logger
        private let condition = NSCondition()
        private var idle: [PostgresConnection] = []
        private var openCount = 0
        private var isClosed = false
        private var lastFailure: (time: Date, error: StateDatabaseError)?
        private var nextID = 1

        init(endpoint: PostgresEndpoint, settings: Settings, logger: Logger) {
            self.endpoint = endpoint
            self.settings = settings
            self.logger = logger
        }

        /// A connection for one caller, and whether it was just opened.
        ///
        /// - Throws: ``StateDatabaseError`` when no connection can be opened (`isUnavailable`
        ///   when the server cannot be reached) or none comes free in time.
        func lease() throws -> (connection: PostgresConnection, isNew: Bool) {
            condition.lock()
            let clock = PostgresStateDatabase.networkClock
            let deadline = clock.now().addingTimeInterval(settings.leaseTimeout)
            while true {
                if isClosed {
                    condition.unlock()
                    throw StateDatabaseError(location: endpoint.location, reason: "the database was closed")
                }
                while let connection = idle.popLast() {
                    if !connection.isClosed {
                        condition.unlock()
                        return (connection, false)
                    }
                    openCount -= 1
                }
                if openCount < settings.maximumConnections {
                    if let failure = lastFailure, clock.now().timeIntervalSince(failure.time) < settings.failureMemory {
                        condition.unlock()
                        throw failure.error
                    }
                    openCount += 1
                    let id = nextID
                    nextID += 1
                    condition.unlock()
                    do {
                        let connection = try connect(id: id)
                        condition.withLock { lastFailure = nil }
                        return (connection, true)
                    } catch let error as StateDatabaseError {
                        condition.withLock {
                            openCount -= 1
                            if error.isUnavailable { lastFailure = (clock.now(), error) }
                            condition.broadcast()
                        }
                        throw error
                    }
                }
                guard clock.wait(on: condition, until: deadline) else {
                    condition.unlock()
                    throw StateDatabaseError(
                        location: endpoint.location,
                        reason:
                            "all \(settings.maximumConnections) connections stayed busy for \(Int(settings.leaseTimeout)) seconds (a transaction waits on another?)",
                        isUnavailable: true)
                }
            }
        }

        /// Gives a connection back; a broken one is closed.
        func release(_ connection: PostgresConnection, broken: Bool) {
            condition.withLock {
                if broken || isClosed || connection.isClosed {
                    openCount -= 1
                    connection.close()
                } else {
                    idle.append(connection)
                }
                condition.signal()
            }
        }

        /// Closes the idle connections now and the others when they come back.
        func close() {
            let connections = condition.withLock {
                isClosed = true
                defer { idle.removeAll() }
                condition.broadcast()
                return idle
            }
            for connection in connections {
                connection.close()
            }
        }

        private func connect(id: Int) throws -> PostgresConnection {
            do {
                let connection = try PostgresConnection.connect(to: endpoint, timeout: settings.connectTimeout, settings: settings.sessionSettings)
                logger.debug("connection \(id) to \(endpoint.location) opened")
                return connection
            } catch {
                throw connectError(error)
            }
        }

        /// Why a connection could not be opened, and what to check.
        private func connectError(_ failure: PostgresFailure) -> StateDatabaseError {
            switch failure.sqlState {
            case "28P01":
                return StateDatabaseError(
                    location: endpoint.location,
                    reason: "the server refused the login: \(failure.reason); check the user and password in the URL")
            case "3D000":
                return StateDatabaseError(
                    location: endpoint.location,
                    reason:
                        "\(failure.reason); create it first: createdb -h \(endpoint.host) -p \(endpoint.port) -U \(endpoint.user) \(endpoint.database)"
                )
            case .some:
                return StateDatabaseError(location: endpoint.location, reason: "cannot connect: \(failure.reason)")
            case nil:
                // The network's failures and a server not taking connections, already in words.
                return StateDatabaseError(location: endpoint.location, reason: failure.reason, isUnavailable: failure.isUnavailable)
            }
        }
    }
#endif

#if PostgreSQL
    import Clockwork
    import Foundation
    import Logging
    import StateStorage

    /// A ``StateDatabase`` in a PostgreSQL database that daemons on many machines share.
    ///
    /// Calls are synchronous: they run on the calling thread and wait for the server (never
    /// call them from an event loop). A few connections (at most 4) are opened on first use and
    /// kept; a connection lost to a restart or the network is replaced on the next call. While
    /// the server cannot be reached, every call fails within about 2 seconds (at once after a
    /// recent failure) with ``StateDatabaseError/isUnavailable`` set: callers try again later.
    ///
    /// The shared SQL is written with `?` placeholders, as for SQLite; each becomes `$1`, `$2`, …
    /// (a `?` in quoted text stays text). Integers are bound as `bigint`, reals as `double
    /// precision`, texts as `text`, nulls as the literal `NULL`. Results come back as
    /// ``SQLValue``s: integers of any size, reals (`real`, `double precision`, `numeric`), texts,
    /// booleans as 0 or 1.
    ///
    /// ```swift
    /// let database = try PostgresStateDatabase(
    ///     url: "postgres://shortcuts:secret@db.internal:5432/shortcuts",
    ///     migrations: [SchemaMigration(name: "notes v1: notes", sql: "CREATE TABLE note (id bigserial PRIMARY KEY, text text)")])
    /// let id = try database.write { try $0.row("INSERT INTO note (text) VALUES (?) RETURNING id", ["Hi"])?.integer("id") }
    /// ```
    public final class PostgresStateDatabase: StateDatabase {
        /// What waits for the server are measured by: the real clock, always. A server answers
        /// in real time, and contention between transactions backs off in it; a manual clock
        /// could not make an answer come sooner, only make a wait last forever.
        static let networkClock = SystemClock()

        /// The URL without its password.
        public let location: String
        public var dialect: SQLDialect { .postgres }
        let pool: PostgresConnectionPool
        let logger: Logger

        /// Opens a database and applies the migrations it lacks.
        ///
        /// Each missing migration runs in its own transaction under an advisory lock, so that
        /// many processes starting at once apply each exactly once; the applied ones are recorded
        /// in the table `shortcuts_migration`.
        ///
        /// - Parameters:
        ///   - url: `postgres://user:password@host:port/database` (or `postgresql://`); a Unix
        ///     socket with `postgres://user@/database?host=/run/postgresql`; `sslmode=require` for TLS.
        ///   - migrations: The schema's steps, in order; names unique across the database's stores.
        ///   - logger: Where connections and retries are logged.
        /// - Throws: ``StateDatabaseError`` naming the URL (without its password): a URL that
        ///   cannot be read, a server that cannot be reached (`isUnavailable`), a refused login, a
        ///   missing database, or a migration that fails.
        public convenience init(
            url: String, migrations: [SchemaMigration], logger: Logger = Logger(label: "shortcuts.postgres")
        ) throws {
            try self.init(url: url, migrations: migrations, settings: PostgresConnectionPool.Settings(), logger: logger)
        }

        init(url: String, migrations: [SchemaMigration], settings: PostgresConnectionPool.Settings, logger: Logger) throws {
            let endpoint = try PostgresEndpoint(url: url)
            location = endpoint.location
            self.logger = logger
            pool = PostgresConnectionPool(endpoint: endpoint, settings: settings, logger: logger)
            try migrate(migrations)
        }

        deinit {
            pool.close()
        }

        /// Closes the connections; later calls fail.
        public func close() {
            pool.close()
        }

        /// Runs `body` in a transaction (`READ COMMITTED`) and commits it.
        ///
        /// When the server aborts the transaction for a deadlock or a serialization failure
        /// (SQLSTATE 40P01, 40001), it is rolled back and `body` runs again, up to 5 times. A
        /// statement that fails ends the transaction: later statements in `body` fail too, so let
        /// the error go up rather than catching it inside `body`.
        ///
        /// - Parameter durable: Ignored: every PostgreSQL commit is durable.
        /// - Throws: ``StateDatabaseError``, with ``StateDatabaseError/isCommitUncertain`` (and
        ///   ``StateDatabaseError/isUnavailable``) when the connection was lost during the commit,
        ///   so the transaction may have been committed or not; or what `body` threw.
        public func write<Result>(durable: Bool, _ body: (any StateConnection) throws -> Result) throws -> Result {
            try withSession(begin: "BEGIN") { session in
                var attempt = 1
                while true {
                    do {
                        let result = try body(session)
                        try commit(session)
                        return result
                    } catch {
                        let state = session.lastSQLState
                        if !session.isBroken {
                            try? session.run("ROLLBACK")
                        }
                        let conflict = state == "40001" || state == "40P01"
                        guard conflict, attempt < 5, !session.isBroken else { throw error }
                        logger.debug("transaction aborted by a conflict (SQLSTATE \(state ?? "")), running it again")
                        Self.networkClock.pause(for: .seconds(Double.random(in: 0.002...0.02) * Double(attempt)))
                        attempt += 1
                        session.resetState()
                        try session.run("BEGIN")
                    }
                }
            }
        }

        /// Runs `body` in a read-only transaction that sees one snapshot (`REPEATABLE READ`).
        ///
        /// - Throws: ``StateDatabaseError``, or what `body` threw.
        public func read<Result>(_ body: (any StateConnection) throws -> Result) throws -> Result {
            try withSession(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { session in
                do {
                    let result = try body(session)
                    try session.run("COMMIT")
                    return result
                } catch {
                    if !session.isBroken { try? session.run("ROLLBACK") }
                    throw error
                }
            }
        }

        /// Commits, telling a refused commit (rolled back) from a lost one (unknown outcome).
        private func commit(_ session: PostgresSession) throws {
            do {
                try session.run("COMMIT")
            } catch let error as StateDatabaseError where session.isBroken {
                throw StateDatabaseError(
                    location: error.location,
                    reason: "the connection was lost during COMMIT, so the transaction may or may not have been committed (\(error.reason))",
                    isUnavailable: true, isCommitUncertain: true)
            }
        }

        /// Leases a connection, begins a transaction on it and gives it back after `body`.
        ///
        /// A kept connection found dead when the transaction begins (the server restarted since
        /// it was last used) is replaced at once, as nothing ran on it yet.
        func withSession<Result>(begin: String, _ body: (PostgresSession) throws -> Result) throws -> Result {
            var stale = 0
            while true {
                let (connection, isNew) = try pool.lease()
                let session = PostgresSession(
                    connection: connection, location: location, logger: logger, requestTimeout: pool.settings.requestTimeout)
                do {
                    try session.run(begin)
                } catch let error as StateDatabaseError {
                    pool.release(connection, broken: session.isBroken)
                    if session.isBroken && !isNew && stale < pool.settings.maximumConnections {
                        stale += 1
                        continue
                    }
                    throw error
                }
                defer { pool.release(connection, broken: session.isBroken) }
                return try body(session)
            }
        }
    }
#endif

import Clockwork
import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import StateStorage
import WorkflowKit

/// The daemons' state: which due times were claimed (and how their runs ended), since when
/// each automation is scheduled, which daemons run and until when their leases last, and the
/// runs asked for outside the schedule.
///
/// It is kept in `$SHORTCUTS_HOME/automations.sqlite` by default, or in a PostgreSQL database
/// shared by daemons on many machines (``init(database:)`` with a `PostgresStateDatabase`).
/// The SQL is the same for both; every decision that must hold across daemons (a due time
/// claimed once, `overlap:` across all their runs, fencing of a daemon that lost its lease) is
/// taken inside one transaction of the database, never in a daemon's memory.
///
/// Runs themselves, with their traces, are in the run history; a ``Claim`` links to its run by
/// id. Claims are committed durably before their runs start (`synchronous = FULL` in SQLite),
/// so that even a power cut cannot make a due time run twice.
///
/// ```swift
/// let store = try AutomationStore.shared()
/// let latest = try store.latestClaims(for: folder.automations.map { store.key(for: $0) })
/// for automation in folder.automations {
///     print(automation.name, latest[store.key(for: automation)]?.status.rawValue ?? "never ran")
/// }
/// ```
public final class AutomationStore: Sendable {
    /// Where the state is.
    let state: any StateDatabase
    /// The clock of a store in a SQLite file, which is the machine's own: the one leases
    /// expire and run requests are timed by. A PostgreSQL store reads the server's clock,
    /// the one every daemon shares.
    public let clock: any EngineClock

    /// How long finished claims are kept: a day. The latest claim of each automation is
    /// always kept, since catch-up starts from it.
    static let retention: TimeInterval = 86_400

    /// The store in the current `$SHORTCUTS_HOME`.
    ///
    /// ```swift
    /// let store = try AutomationStore.shared()
    /// ```
    ///
    /// - Parameter clock: The machine's clock, which leases and run requests are timed by.
    /// - Returns: The store, created and migrated on first use.
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened or migrated.
    public static func shared(clock: any EngineClock = .system) throws -> AutomationStore {
        try AutomationStore(path: try ShortcutsHome.file(named: "automations.sqlite").path, clock: clock)
    }

    /// Opens (creating or migrating) a store in a SQLite file.
    ///
    /// ```swift
    /// let store = try AutomationStore(path: "/tmp/automations.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    ///   - clock: The machine's clock, which leases and run requests are timed by.
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened or migrated.
    public init(path: String, clock: any EngineClock = .system) throws {
        state = try SQLiteStateDatabase(path: path, migrator: Self.migrator)
        self.clock = clock
    }

    /// A store on a database that other stores may share: a PostgreSQL database opened with
    /// ``postgresMigrations`` among its migrations, or a SQLite file (migrated here).
    ///
    /// ```swift
    /// let database = try PostgresStateDatabase(url: url, migrations: AutomationStore.postgresMigrations + RunHistory.postgresMigrations)
    /// let store = try AutomationStore(database: database)
    /// ```
    ///
    /// - Parameters:
    ///   - database: The database.
    ///   - clock: For a SQLite file, the machine's clock, which leases and run requests are
    ///     timed by; PostgreSQL's is the server's.
    /// - Throws: `SQLiteStorageError` when a SQLite file cannot be migrated; `StateDatabaseError`
    ///   when a PostgreSQL database cannot be read or lacks the store's migrations (with the fix).
    public init(database: any StateDatabase, clock: any EngineClock = .system) throws {
        self.clock = clock
        if let sqlite = database as? SQLiteStateDatabase {
            try SQLiteStorageError.naming(sqlite.path) {
                if try !sqlite.writer.read({ try Self.migrator.hasCompletedMigrations($0) }) { try Self.migrator.migrate(sqlite.writer) }
            }
        }
        if database.dialect == .postgres { try Self.checkSchema(of: database) }
        state = database
    }

    /// Throws, with the fix, when a PostgreSQL database lacks the store's migrations.
    private static func checkSchema(of database: any StateDatabase) throws {
        try database.requireMigrations(postgresMigrations, of: "the automation store", openedWith: "AutomationStore.postgresMigrations")
    }

    /// The GRDB connection of a store in a SQLite file, for SQLite-only inspection.
    var database: any DatabaseWriter {
        guard let sqlite = state as? SQLiteStateDatabase else {
            preconditionFailure("\(state.location) is not a SQLite file: read it through the store's methods")
        }
        return sqlite.writer
    }

    /// Whether the store is shared by daemons on several machines (PostgreSQL): automations are
    /// then identified by their path relative to the workflows folder, the same on every machine.
    ///
    /// ```swift
    /// if store.isShared { print("daemons on every machine share", store.location) }
    /// ```
    public var isShared: Bool { state.dialect == .postgres }

    /// Where the store is, for messages: the SQLite file, or the PostgreSQL URL without its password.
    public var location: String { state.location }

    /// The key an automation's claims and run requests are recorded under: its file's absolute
    /// path in a SQLite store (``Automation/key``), its path relative to the workflows folder in
    /// a shared store (``Automation/relativePath``), so that every machine names it alike.
    ///
    /// ```swift
    /// let claims = try store.claims(of: store.key(for: automation))
    /// ```
    ///
    /// - Parameter automation: The automation.
    /// - Returns: Its key in this store.
    public func key(for automation: Automation) -> String {
        isShared ? automation.relativePath : automation.key
    }

    // MARK: Reading

    /// The most recent claim of each automation.
    ///
    /// ```swift
    /// let latest = try store.latestClaims(for: [store.key(for: automation)])[store.key(for: automation)]
    /// ```
    ///
    /// - Parameter keys: The automations' keys (``key(for:)``).
    /// - Returns: The latest claim by key; automations never claimed are absent.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func latestClaims(for keys: [String]) throws -> [String: Claim] {
        try state.read { connection in
            var latest: [String: Claim] = [:]
            for key in keys {
                let row = try connection.row("SELECT * FROM claim WHERE automationKey = ? ORDER BY dueTime DESC LIMIT 1", [.text(key)])
                latest[key] = row.map(Claim.init(row:))
            }
            return latest
        }
    }

    /// The claims of one automation, most recent due time first.
    ///
    /// ```swift
    /// for claim in try store.claims(of: store.key(for: automation), limit: 10) { print(claim.dueDate, claim.status) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The automation's key (``key(for:)``).
    ///   - limit: How many claims at most.
    /// - Returns: The claims.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func claims(of key: String, limit: Int = 20) throws -> [Claim] {
        try state.read { connection in
            try connection.rows("SELECT * FROM claim WHERE automationKey = ? ORDER BY dueTime DESC LIMIT ?", [.text(key), .integer(Int64(limit))])
                .map(Claim.init(row:))
        }
    }

    /// The claims of every automation whose due times fall in a window, earliest due time first:
    /// how late each run started (``Claim/startedAt`` − ``Claim/dueTime``), what the dashboard's
    /// lateness chart counts. Finished claims are kept a day (and each automation's latest).
    ///
    /// ```swift
    /// let lateness = try store.claims(dueFrom: Date().addingTimeInterval(-3_600), to: Date())
    ///     .compactMap { claim in claim.startedAt.map { $0 - Double(claim.dueTime) } }
    /// ```
    ///
    /// - Parameters:
    ///   - start: The window's start (included).
    ///   - end: The window's end (excluded).
    ///   - limit: How many claims at most: the latest due times of the window when there are more.
    /// - Returns: The claims.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func claims(dueFrom start: Date, to end: Date, limit: Int = 100_000) throws -> [Claim] {
        let first = Int64(start.timeIntervalSince1970.rounded(.up))
        let last = Int64(end.timeIntervalSince1970.rounded(.up))
        let rows = try state.read { connection in
            try connection.rows(
                "SELECT * FROM claim WHERE dueTime >= ? AND dueTime < ? ORDER BY dueTime DESC, id DESC LIMIT ?",
                [.integer(first), .integer(last), .integer(Int64(max(limit, 0)))])
        }
        return rows.reversed().map(Claim.init(row:))
    }

    /// The database's clock, in seconds since 1970, read inside a transaction.
    func now(_ connection: any StateConnection) throws -> Double {
        let time = currentTime(in: connection)
        return try connection.row("SELECT \(time.expression) AS now", time.values)?.real("now") ?? clock.now().timeIntervalSince1970
    }

    /// The database's current time as an SQL expression and the values it binds: the
    /// server's clock in PostgreSQL, the store's clock (the machine's) for a SQLite file.
    func currentTime(in connection: any StateConnection) -> (expression: String, values: [SQLValue]) {
        switch connection.dialect {
        case .postgres: (connection.dialect.currentTime, [])
        case .sqlite: ("?", [.real(clock.now().timeIntervalSince1970)])
        }
    }
}

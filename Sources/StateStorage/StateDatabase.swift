import Foundation

/// The SQL dialect of a ``StateDatabase``: the few phrases that differ between SQLite and
/// PostgreSQL, interpolated into otherwise shared SQL.
///
/// ```swift
/// let due = try connection.rows("SELECT id FROM claim WHERE status = 'queued' ORDER BY dueTime LIMIT 1" + connection.dialect.lockRowsSkippingLocked, [])
/// ```
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// An expression for the database's current time in seconds since 1970 (a real number).
    /// In PostgreSQL it is the server's clock, the one clock every daemon shares.
    public var currentTime: String {
        switch self {
        case .sqlite: "((julianday('now') - 2440587.5) * 86400.0)"
        case .postgres: "extract(epoch from clock_timestamp())::double precision"
        }
    }

    /// ` FOR UPDATE` in PostgreSQL, nothing in SQLite (whose write transactions are serial).
    public var lockRows: String {
        self == .postgres ? " FOR UPDATE" : ""
    }

    /// ` FOR UPDATE SKIP LOCKED` in PostgreSQL, nothing in SQLite.
    public var lockRowsSkippingLocked: String {
        self == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
    }
}

/// Statements run inside one ``StateDatabase`` transaction (or read), with `?` placeholders.
public protocol StateConnection {
    /// The database's dialect.
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows.
    ///
    /// - Returns: How many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue]) throws -> Int

    /// Runs a query (or a statement with `RETURNING`) and returns its rows.
    func rows(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow]
}

extension StateConnection {
    /// The first row of a query, or `nil`.
    public func row(_ sql: String, _ values: [SQLValue]) throws -> SQLRow? {
        try rows(sql, values).first
    }
}

/// Where the daemon's state and the run history are kept: a SQLite file on one machine
/// (``SQLiteStateDatabase``), or a PostgreSQL database shared by many (`PostgresStateDatabase`
/// in `PostgresStorage`). The stores above it (`AutomationStore`, `RunHistory`) write their SQL
/// once, with `?` placeholders and ``SQLDialect`` phrases, and run it on either.
///
/// ```swift
/// let database = try SQLiteStateDatabase(path: "/tmp/state.sqlite", migrator: migrator)
/// let count = try database.read { try $0.row("SELECT count(*) AS n FROM claim", [])?.integer("n") }
/// ```
public protocol StateDatabase: Sendable {
    /// The dialect of its SQL.
    var dialect: SQLDialect { get }

    /// Where it is, for messages: a file path, or a PostgreSQL URL without its password.
    var location: String { get }

    /// Runs statements in one write transaction, committed when `body` returns and rolled
    /// back when it throws.
    ///
    /// PostgreSQL may run `body` again when the server aborts the transaction for a conflict
    /// with another (a deadlock or a serialization failure), so `body` must only read and write
    /// the database, and compute its result from what it reads.
    ///
    /// - Parameter durable: Whether the commit must reach the disk before this returns even
    ///   in SQLite (`synchronous = FULL`), for writes that must survive a power cut; PostgreSQL
    ///   commits are always durable.
    /// - Throws: ``StateDatabaseError`` naming the database when it cannot be reached, or a
    ///   statement fails.
    func write<Result>(durable: Bool, _ body: (any StateConnection) throws -> Result) throws -> Result

    /// Runs queries that read a consistent snapshot.
    func read<Result>(_ body: (any StateConnection) throws -> Result) throws -> Result
}

extension StateDatabase {
    /// Runs statements in one write transaction that need not reach the disk before it returns.
    public func write<Result>(_ body: (any StateConnection) throws -> Result) throws -> Result {
        try write(durable: false, body)
    }
}

/// Why a state database could not be used: where it is and the reason in words.
///
/// ```swift
/// catch let error as StateDatabaseError where error.isUnavailable { scheduleReconnect() }
/// ```
public struct StateDatabaseError: Error, CustomStringConvertible, Sendable {
    /// The database (``StateDatabase/location``).
    public var location: String
    /// What went wrong, in words.
    public var reason: String
    /// Whether the database could not be reached (down, restarting, the network): worth trying
    /// again later, unlike a failed statement.
    public var isUnavailable: Bool
    /// Whether the connection was lost while a commit was under way, so that the transaction
    /// may or may not have been committed.
    public var isCommitUncertain: Bool

    public init(location: String, reason: String, isUnavailable: Bool = false, isCommitUncertain: Bool = false) {
        self.location = location
        self.reason = reason
        self.isUnavailable = isUnavailable
        self.isCommitUncertain = isCommitUncertain
    }

    public var description: String { "\(location): \(reason)" }
}

import Clockwork
import Foundation
import GRDB

/// The one way Shortcuts and its example apps open a SQLite file.
///
/// Every database is opened the same way, so that several processes (a daemon, `shortcuts run`
/// in a terminal, a script's `perform`) can share it:
///
/// - **WAL mode** (a `DatabasePool`): readers never wait for a writer, and a writer never
///   waits for readers. Commits do not wait for the disk (`synchronous = NORMAL`): a process
///   killed at any moment loses nothing, a power cut may lose the last commits.
/// - **A busy timeout of 5 seconds** (``busyTimeout``): a writer waits that long for
///   another process's transaction before it fails with ``SQLiteStorageError/Reason/busy``.
/// - **Immediate write transactions**: `write { }` begins with `BEGIN IMMEDIATE`, so a
///   transaction that reads and then writes takes the write lock first and can never fail
///   half-way with "database is locked".
/// - **Foreign keys** enforced.
/// - **Migrations safe when two processes open a new file at once** (``migrate(_:with:path:)``).
/// - **Errors that name the file and say why in words** (``SQLiteStorageError``), never a bare
///   SQLite code.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1: notes") { db in
///     try db.create(table: "note") { $0.primaryKey("id", .text); $0.column("text", .text) }
/// }
/// let writer = try SQLiteDatabase.open(path: "/tmp/notes.sqlite", migrator: migrator)
/// let reader = try SQLiteDatabase.open(path: "/tmp/notes.sqlite", access: .readOnly, migrator: migrator)
/// ```
package enum SQLiteDatabase {
    /// How long a connection waits for another process's write transaction: 5 seconds.
    package static let busyTimeout: TimeInterval = 5

    /// Whether a database is opened to be written or only read.
    package enum Access: Sendable {
        /// Created and migrated when needed; written in immediate transactions.
        case readWrite
        /// Never written, never created: works in a read-only folder. The file must exist and
        /// be migrated already.
        case readOnly
    }

    /// The configuration every database is opened with.
    ///
    /// - Parameters:
    ///   - access: Whether the connection writes.
    ///   - prepare: Work to do on each new connection, such as registering SQL functions.
    /// - Returns: The configuration.
    package static func configuration(
        access: Access = .readWrite,
        prepare: (@Sendable (Database) throws -> Void)? = nil
    ) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.readonly = access == .readOnly
        configuration.prepareDatabase { db in
            if access == .readWrite { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try prepare?(db)
        }
        return configuration
    }

    /// Opens a database file, creating and migrating it when it is opened for writing.
    ///
    /// ```swift
    /// let writer = try SQLiteDatabase.open(path: home.appendingPathComponent("notes.sqlite").path, migrator: migrator)
    /// try writer.write { db in try db.execute(sql: "INSERT INTO note (id, text) VALUES (?, ?)", arguments: ["1", "Hi"]) }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file, or `:memory:` for a private database in memory.
    ///   - access: ``Access/readWrite`` (the default) or ``Access/readOnly``.
    ///   - migrator: The schema's migrations.
    ///   - prepare: Work to do on each new connection, such as registering SQL functions.
    /// - Returns: A `DatabasePool` for a file opened for writing, a read-only `DatabaseQueue`
    ///   for a file opened for reading, a `DatabaseQueue` in memory.
    /// - Throws: ``SQLiteStorageError`` naming the file and the reason.
    package static func open(
        path: String, access: Access = .readWrite, migrator: DatabaseMigrator,
        prepare: (@Sendable (Database) throws -> Void)? = nil
    ) throws -> any DatabaseWriter {
        let configuration = configuration(access: access, prepare: prepare)
        if path == ":memory:" {
            let queue = try DatabaseQueue(configuration: configuration)
            try migrator.migrate(queue)
            return queue
        }
        switch access {
        case .readWrite:
            let pool = try openPool(path: path, configuration: configuration)
            try migrate(pool, with: migrator, path: path)
            return pool
        case .readOnly:
            guard FileManager.default.fileExists(atPath: path) else { throw SQLiteStorageError(path: path, reason: .missing) }
            let queue = try SQLiteStorageError.naming(path) { try openForReading(path: path, configuration: configuration) }
            let isMigrated = try SQLiteStorageError.naming(path) { try queue.read { try migrator.hasCompletedMigrations($0) } }
            guard isMigrated else { throw SQLiteStorageError(path: path, reason: .notMigrated) }
            return queue
        }
    }

    /// Opens a file in WAL mode as a `DatabasePool`, without migrating it: for a caller that
    /// migrates on its own (SpotlightKit's index files, whose schema its indexes set up).
    ///
    /// ```swift
    /// let pool = try SQLiteDatabase.openPool(path: "/tmp/indexes/notes.sqlite", prepare: { db in installFunctions(db) })
    /// try SQLiteDatabase.migrate(pool, with: migrator, path: pool.path)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file; created when missing and opened for writing.
    ///   - access: ``Access/readOnly`` for a file this process may not write: it is read,
    ///     never written (a pool's readers need the file's `-shm` file, or a writable folder).
    ///   - prepare: Work to do on each new connection, such as registering SQL functions.
    /// - Returns: The pool.
    /// - Throws: ``SQLiteStorageError`` naming the file and the reason.
    package static func openPool(
        path: String, access: Access = .readWrite,
        prepare: (@Sendable (Database) throws -> Void)? = nil
    ) throws -> DatabasePool {
        try openPool(path: path, configuration: configuration(access: access, prepare: prepare))
    }

    /// Opens a pool, trying again while another process holds the file.
    ///
    /// Opening switches a new file to WAL mode, which needs a moment alone with it. A process
    /// that opens the file at that moment may be told "busy" at once (SQLite does not wait in
    /// every such case), so opening is tried again, up to the timeout.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = lockClock.now().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where isBusy(error) && lockClock.now() < deadline {
                lockClock.pause(for: .seconds(.random(in: 0.005...0.05)))
            } catch {
                throw SQLiteStorageError(error, path: path)
            }
        }
    }

    /// Opens a file for reading. A WAL-mode file needs its shared-memory file (`-shm`), which
    /// SQLite creates beside it; in a folder this process cannot write, where that file is
    /// missing, the database is read as immutable instead: a snapshot of the file as it is.
    private static func openForReading(path: String, configuration: Configuration) throws -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
            let folder = (path as NSString).deletingLastPathComponent
            guard !FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else { throw error }
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var components = URLComponents()
            components.scheme = "file"
            components.path = absolute
            components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
            return try DatabaseQueue(path: components.string ?? path, configuration: configuration)
        }
    }

    /// Migrates a database that another process may be migrating at the same time.
    ///
    /// GRDB reads which migrations were applied, then applies each of the others in its own
    /// immediate transaction. Two processes opening a new file both find it unmigrated; the
    /// second to take the write lock fails (its migration's table already exists, or its
    /// `grdb_migrations` row is a duplicate) and rolls back. This function then reads again
    /// which migrations were applied and carries on from there, so both processes succeed.
    ///
    /// - Parameters:
    ///   - writer: The database.
    ///   - migrator: Its migrations.
    ///   - path: The file, for errors.
    /// - Throws: ``SQLiteStorageError`` when the migrations fail for another reason.
    package static func migrate(_ writer: any DatabaseWriter, with migrator: DatabaseMigrator, path: String) throws {
        let deadline = lockClock.now().addingTimeInterval(busyTimeout)
        var attempt = 0
        while true {
            attempt += 1
            do {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                try migrator.migrate(writer)
                return
            } catch {
                let isMigrated = (try? writer.read { try migrator.hasCompletedMigrations($0) }) ?? false
                if isMigrated { return }
                // Another process's migration may still be under way: wait for it, a few times.
                let mayRetry = attempt < 5 || ((error as? DatabaseError).map(isBusy) ?? false)
                guard mayRetry, lockClock.now() < deadline else { throw SQLiteStorageError(error, path: path) }
                lockClock.pause(for: .seconds(.random(in: 0.005...0.05)))
            }
        }
    }

    /// What waits for another process's lock on a file are measured by: the real clock, always.
    /// Those waits are contention between processes, as SQLite's own busy timeout is, not a
    /// behaviour in time a test would advance; a manual clock would make them wait forever.
    static let lockClock = SystemClock()

    /// Whether an error is another connection's lock, worth waiting for.
    package static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}

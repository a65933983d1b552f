import Foundation
import GRDB

/// How SpotlightKit opens and migrates its own index databases: one place, so every index
/// file gets the same busy timeout, functions and migration rules.
///
/// - A connection waits up to ``busyTimeout`` for another process's write to finish
///   instead of failing with "database is locked".
/// - Writes run in `BEGIN IMMEDIATE` transactions (GRDB's default for `write`), so a
///   transaction that reads and then writes never fails half-way on a lock.
/// - Migrations are skipped after a read when they are complete, so reading an index
///   needs no write access, and two processes migrating at once both succeed.
///
/// ```swift
/// let pool = try IndexDatabase.open(path: "/tmp/indexes/notes.sqlite")
/// let index = try SearchableIndex(name: "notes", database: pool)
/// ```
enum IndexDatabase {
    /// How long a connection waits for another connection's write lock.
    static let busyTimeout: TimeInterval = 5

    /// The configuration of every index database.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in SpotlightFunctions.install(in: db) }
        return configuration
    }

    /// Opens (creating it when missing) an index database file in WAL mode.
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    /// - Returns: The connection pool.
    /// - Throws: A GRDB `DatabaseError` when the file cannot be opened.
    static func open(path: String) throws -> DatabasePool {
        try DatabasePool(path: path, configuration: configuration)
    }

    /// Runs the migrations that are not applied yet; only reads when there are none.
    ///
    /// When another process applies the same migrations at the same moment, one of the two
    /// fails on the schema the other created; it looks again and finds them applied.
    ///
    /// - Parameters:
    ///   - migrator: The migrations.
    ///   - writer: The database.
    /// - Throws: The migration's error when it fails for another reason.
    static func migrate(_ migrator: DatabaseMigrator, _ writer: any DatabaseWriter) throws {
        if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
        var attempt = 0
        while true {
            do {
                try migrator.migrate(writer)
                return
            } catch let error as DatabaseError where attempt < 3 {
                attempt += 1
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                guard [.SQLITE_CONSTRAINT, .SQLITE_ERROR, .SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) else { throw error }
            }
        }
    }
}

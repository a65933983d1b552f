import Clockwork
import Foundation
import GRDB
import SQLiteStorage

/// How SpotlightKit opens and migrates its own index databases: through SQLiteStorage's
/// ``SQLiteDatabase``, the way every database of the package is opened, with SpotlightKit's
/// SQL functions on each connection.
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
    /// How long a connection waits for another connection's write lock: SQLiteStorage's.
    static let busyTimeout: TimeInterval = SQLiteDatabase.busyTimeout

    /// The configuration of every index database opened for writing.
    static var configuration: Configuration {
        SQLiteDatabase.configuration(prepare: installFunctions)
    }

    @Sendable private static func installFunctions(_ db: Database) {
        SpotlightFunctions.install(in: db)
    }

    /// Opens (creating it when missing) an index database file in WAL mode.
    ///
    /// A file this process cannot write (a read-only home) is opened read-only, so that it can
    /// still be searched. Opening a pool may write a little (to set up the WAL file); when
    /// processes open the same file at the same moment that write can meet another one, and
    /// the opening is tried again for up to ``busyTimeout``.
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    /// - Returns: The connection pool.
    /// - Throws: `SQLiteStorageError` naming the file when it cannot be opened.
    static func open(path: String) throws -> DatabasePool {
        let files = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        let isReadOnly = files.fileExists(atPath: path) && (!files.isWritableFile(atPath: path) || !files.isWritableFile(atPath: folder))
        return try SQLiteDatabase.openPool(path: path, access: isReadOnly ? .readOnly : .readWrite, prepare: installFunctions)
    }

    /// Runs the migrations that are not applied yet; only reads when there are none.
    ///
    /// When another process applies the same migrations at the same moment, one of the two
    /// fails on the schema the other created; it looks again (for up to ``busyTimeout``)
    /// until it finds them applied.
    ///
    /// - Parameters:
    ///   - migrator: The migrations.
    ///   - writer: The database.
    ///   - clock: The clock the deadline and the pauses between tries are measured by.
    /// - Throws: The migration's error when it still fails after ``busyTimeout``.
    static func migrate(_ migrator: DatabaseMigrator, _ writer: any DatabaseWriter, clock: any EngineClock) throws {
        let deadline = clock.now().addingTimeInterval(busyTimeout)
        var pause = 0.005
        while true {
            do {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                try migrator.migrate(writer)
                return
            } catch let error as DatabaseError {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                guard clock.now() < deadline else { throw error }
                clock.pause(for: .seconds(pause))
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// Whether an error is another connection's lock, worth waiting for.
    static func isBusy(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return SQLiteDatabase.isBusy(error)
    }

    /// Runs `work` again while another connection holds the lock, for up to ``busyTimeout``.
    ///
    /// For databases SpotlightKit does not open itself (an app's store), whose connections
    /// may not wait for locks on their own. The deadline and the pauses are measured by `clock`.
    ///
    /// ```swift
    /// let identifier = try IndexDatabase.retryingWhileBusy(clock: .system) { try store.write { db in try read(db) } }
    /// ```
    static func retryingWhileBusy<T>(clock: any EngineClock, _ work: () throws -> T) throws -> T {
        let deadline = clock.now().addingTimeInterval(busyTimeout)
        var pause = 0.005
        while true {
            do {
                return try work()
            } catch  where isBusy(error) && clock.now() < deadline {
                clock.pause(for: .seconds(pause))
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// ``retryingWhileBusy(clock:_:)`` for asynchronous work.
    static func retryingWhileBusyAsync<T>(clock: any EngineClock, _ work: () async throws -> T) async throws -> T {
        let deadline = clock.now().addingTimeInterval(busyTimeout)
        var pause = 0.005
        while true {
            do {
                return try await work()
            } catch  where isBusy(error) && clock.now() < deadline {
                try await clock.sleep(for: .seconds(pause))
                pause = min(pause * 2, 0.1)
            }
        }
    }
}

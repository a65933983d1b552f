import Foundation
import GRDB

/// The SQLite files under `$SHORTCUTS_HOME` that several processes share (the run history,
/// the automations' claims): opened the same way, and migrated safely when two processes open
/// a new file at once.
package enum StateDatabase {
    /// How state files are opened: wait up to 10 s for a busy database, and write to disk at
    /// checkpoints rather than at every commit (`synchronous = NORMAL`, safe in WAL mode).
    package static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// Runs a migrator on a database that another process may be migrating at the same time.
    ///
    /// Both processes find a new file unmigrated and race to create its tables; the loser's
    /// transaction fails and rolls back, and a second try finds the winner's tables.
    package static func migrate(_ database: any DatabaseWriter, with migrator: DatabaseMigrator) throws {
        for attempt in 1...3 {
            do {
                try migrator.migrate(database)
                return
            } catch where attempt < 3 {
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }

    /// Opens a state file as a pool of connections, waiting while another process creates it.
    ///
    /// Opening switches a new file to WAL mode (`PRAGMA journal_mode = WAL`), which SQLite
    /// refuses at once with `SQLITE_BUSY`, without waiting for the busy timeout, while another
    /// process holds a lock on the file, as when two processes open a new file at once: the open
    /// is tried again for up to 5 seconds.
    package static func pool(path: String) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(5)
        var pause = 0.01
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.2)
            }
        }
    }
}

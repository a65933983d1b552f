import Foundation
import GRDB
import StateStorage
import Testing

/// The SQLite adapter runs the shared SQL as written, with its values, counts and transactions.
@Suite("SQLite state database")
struct SQLiteStateDatabaseTests {
    private func database() throws -> SQLiteStateDatabase {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: notes") { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT, score REAL, count INTEGER)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try SQLiteStateDatabase(path: folder.appendingPathComponent("state.sqlite").path, migrator: migrator)
    }

    @Test("Values go in and come out with their types; RETURNING gives the new ids; counts are rows changed")
    func values() throws {
        try StateDatabaseChecks.values(try database())
    }

    @Test("A body that throws rolls its transaction back, durable or not")
    func rollback() throws {
        try StateDatabaseChecks.rollback(try database())
    }

    @Test("The dialect's current time is the clock's, in seconds since 1970")
    func currentTime() throws {
        try StateDatabaseChecks.currentTime(try database())
    }
}

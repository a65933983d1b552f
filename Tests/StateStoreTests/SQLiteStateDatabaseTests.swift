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
        let database = try database()
        let ids = try database.write { connection in
            try (0..<3).map { index in
                try connection.row(
                    "INSERT INTO note (text, score, count) VALUES (?, ?, ?) RETURNING id", [.text("n\(index)"), 0.5, .integer(Int64(index))]
                )?
                .integer("id")
            }
        }
        #expect(ids == [1, 2, 3])
        let changed = try database.write { try $0.execute("UPDATE note SET text = ? WHERE count >= ?", [nil, 1]) }
        #expect(changed == 2)
        let rows = try database.read { try $0.rows("SELECT id, text, score, count AS \"Count\" FROM note ORDER BY id", []) }
        #expect(rows.map { $0.text("text") } == ["n0", nil, nil])
        #expect(rows.map { $0.real("score") } == [0.5, 0.5, 0.5])
        #expect(rows.map { $0.int("count") } == [0, 1, 2])
        #expect(rows[0]["TEXT"] == .text("n0"))
    }

    @Test("A body that throws rolls its transaction back, durable or not")
    func rollback() throws {
        let database = try database()
        struct Failure: Error {}
        for durable in [false, true] {
            #expect(throws: Failure.self) {
                try database.write(durable: durable) { connection in
                    try connection.execute("INSERT INTO note (text) VALUES (?)", ["lost"])
                    throw Failure()
                }
            }
        }
        try database.write(durable: true) { try $0.execute("INSERT INTO note (text) VALUES (?)", ["kept"]) }
        let texts = try database.read { try $0.rows("SELECT text FROM note", []).compactMap { $0.text("text") } }
        #expect(texts == ["kept"])
    }

    @Test("The dialect's current time is the clock's, in seconds since 1970")
    func currentTime() throws {
        let database = try database()
        let now = try database.read { try $0.row("SELECT \(database.dialect.currentTime) AS now", [])?.real("now") }
        #expect(abs((now ?? 0) - Date().timeIntervalSince1970) < 5)
    }
}

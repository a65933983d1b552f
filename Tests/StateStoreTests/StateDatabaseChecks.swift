import Foundation
import ShortcutsSystemTestSupport
import StateStorage
import Testing

/// What every state database adapter must do with the shared SQL, written once and run on each
/// database by its own suite. Each takes a fresh database holding an empty
/// `note (id, text, score, count)` table whose `id` counts from 1.
enum StateDatabaseChecks {
    /// Values go in and come out with their types; `RETURNING` gives the new ids; counts are rows changed.
    static func values(_ database: any StateDatabase) throws {
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

    /// A body that throws rolls its transaction back, durable or not.
    static func rollback(_ database: any StateDatabase) throws {
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

    /// The dialect's current time is the database's clock (here the same machine's), in seconds since 1970.
    static func currentTime(_ database: any StateDatabase) throws {
        let now = try database.read { try $0.row("SELECT \(database.dialect.currentTime) AS now", [])?.real("now") }
        #expect(abs((now ?? 0) - Date().timeIntervalSince1970) < 5)
    }
}

import Foundation
import GRDB
import SQLiteStorage

/// A ``StateDatabase`` in one SQLite file, opened as every SQLite file of Shortcuts is (WAL, a
/// busy timeout, immediate write transactions; see `SQLiteDatabase`).
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1: notes") { db in try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)") }
/// let database = try SQLiteStateDatabase(path: "/tmp/notes.sqlite", migrator: migrator)
/// try database.write { try $0.execute("INSERT INTO note (text) VALUES (?)", ["Hi"]) }
/// ```
public final class SQLiteStateDatabase: StateDatabase {
    /// The GRDB connection, for the stores' SQLite-only work.
    package let writer: any DatabaseWriter
    /// The file.
    public let path: String

    public var dialect: SQLDialect { .sqlite }
    public var location: String { path }

    /// Opens (creating and migrating, unless read-only) a file; `:memory:` for a private one.
    ///
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    package init(path: String, readOnly: Bool = false, migrator: DatabaseMigrator) throws {
        self.path = path
        writer = try SQLiteDatabase.open(path: path, access: readOnly ? .readOnly : .readWrite, migrator: migrator)
    }

    public func write<Result>(durable: Bool, _ body: (any StateConnection) throws -> Result) throws -> Result {
        try SQLiteStorageError.naming(path) {
            guard durable else { return try writer.write { db in try body(Connection(db: db)) } }
            return try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
                var result: Result?
                try db.inTransaction(.immediate) {
                    result = try body(Connection(db: db))
                    return .commit
                }
                return result!
            }
        }
    }

    public func read<Result>(_ body: (any StateConnection) throws -> Result) throws -> Result {
        try SQLiteStorageError.naming(path) {
            try writer.read { db in try body(Connection(db: db)) }
        }
    }

    /// Statements on one GRDB connection, prepared once per connection and SQL text.
    struct Connection: StateConnection {
        let db: Database

        var dialect: SQLDialect { .sqlite }

        func execute(_ sql: String, _ values: [SQLValue]) throws -> Int {
            let statement = try db.cachedStatement(sql: sql)
            try statement.execute(arguments: Self.arguments(values))
            return db.changesCount
        }

        func rows(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow] {
            let statement = try db.cachedStatement(sql: sql)
            return try Row.fetchAll(statement, arguments: Self.arguments(values)).map { row in
                var values: [String: SQLValue] = [:]
                for (column, value) in row {
                    let converted: SQLValue =
                        switch value.storage {
                        case .null: .null
                        case .int64(let number): .integer(number)
                        case .double(let number): .real(number)
                        case .string(let text): .text(text)
                        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
                        }
                    values[column] = converted
                    values[column.lowercased()] = converted
                }
                return SQLRow(values)
            }
        }

        static func arguments(_ values: [SQLValue]) -> StatementArguments {
            StatementArguments(
                values.map { value -> (any DatabaseValueConvertible)? in
                    switch value {
                    case .null: nil
                    case .integer(let number): number
                    case .real(let number): number
                    case .text(let text): text
                    }
                })
        }
    }
}

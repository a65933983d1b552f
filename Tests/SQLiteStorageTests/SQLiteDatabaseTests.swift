import Foundation
import GRDB
import Synchronization
import Testing

@testable import SQLiteStorage

@Suite("Opening SQLite databases")
struct SQLiteDatabaseTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: counters") { db in
            try db.create(table: "counter") { table in
                table.primaryKey("name", .text)
                table.column("value", .integer).notNull()
            }
        }
        migrator.registerMigration("v2: first counter") { db in
            try db.execute(sql: "INSERT INTO counter (name, value) VALUES ('total', 0)")
        }
        migrator.registerMigration("v3: notes") { db in
            try db.create(table: "note") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("text", .text).notNull().unique()
            }
        }
        return migrator
    }

    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs blocking work on a thread outside Swift's cooperative pool, which other suites' tasks need.
    func detached<T: Sendable>(_ work: @Sendable @escaping () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    @Test func connectionsOpeningANewFileAtOnceAllMigrateIt() async throws {
        for _ in 0..<10 {
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("shared.sqlite").path
            let failures = try await detached {
                let failures = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    do {
                        let writer = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
                        try writer.write { db in try db.execute(sql: "UPDATE counter SET value = value + 1") }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                return failures.withLock { $0 }
            }
            #expect(failures == [])
            let reader = try SQLiteDatabase.open(path: path, access: .readOnly, migrator: Self.migrator)
            #expect(try await reader.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") } == 8)
            #expect(try await reader.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") } == 3)
        }
    }

    @Test func transactionsThatReadThenWriteNeverFailLocked() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("counter.sqlite").path
        _ = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
        let failures = try await detached {
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    // One pool per thread: as many connections as processes would have.
                    let writer = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
                    for _ in 0..<40 {
                        try writer.write { db in
                            let value = try Int.fetchOne(db, sql: "SELECT value FROM counter") ?? 0
                            try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            return failures.withLock { $0 }
        }
        #expect(failures == [])
        let reader = try SQLiteDatabase.open(path: path, access: .readOnly, migrator: Self.migrator)
        #expect(try await reader.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") } == 320)
    }

    @Test func errorsNameTheFileAndTheReasonInWords() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let inMissingFolder = folder.appendingPathComponent("no/such/folder/data.sqlite").path
        let cannotOpen = #expect(throws: SQLiteStorageError.self) { try SQLiteDatabase.open(path: inMissingFolder, migrator: Self.migrator) }
        #expect(cannotOpen?.reason == .folderMissing)
        #expect(
            cannotOpen?.description == """
                \(inMissingFolder): its folder \(folder.path)/no/such/folder does not exist
                help: create \(folder.path)/no/such/folder, or use another data folder
                """)

        let folderInPlace = folder.appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: folderInPlace, withIntermediateDirectories: true)
        let isFolder = #expect(throws: SQLiteStorageError.self) { try SQLiteDatabase.open(path: folderInPlace.path, migrator: Self.migrator) }
        #expect(isFolder?.reason == .isFolder)
        #expect(isFolder?.description.hasPrefix(folderInPlace.path + ": a folder has the file's name\nhelp: move the folder") == true)

        let text = folder.appendingPathComponent("notes.txt")
        try String(repeating: "not a database\n", count: 100).write(to: text, atomically: true, encoding: .utf8)
        let notADatabase = #expect(throws: SQLiteStorageError.self) { try SQLiteDatabase.open(path: text.path, migrator: Self.migrator) }
        #expect(notADatabase?.reason == .notADatabase)
        #expect(
            notADatabase?.description
                == "\(text.path): the file is not a SQLite database\nhelp: move \(text.path) away; a new one is created on next use")
    }

    @Test func readOnlyOpeningCreatesAndWritesNothing() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data.sqlite").path

        let missing = #expect(throws: SQLiteStorageError.self) { try SQLiteDatabase.open(path: path, access: .readOnly, migrator: Self.migrator) }
        #expect(missing?.reason == .missing)
        #expect(!FileManager.default.fileExists(atPath: path))

        _ = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
        let reader = try SQLiteDatabase.open(path: path, access: .readOnly, migrator: Self.migrator)
        #expect(try reader.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") } == 0)
        let refused = #expect(throws: (any Error).self) { try reader.write { try $0.execute(sql: "UPDATE counter SET value = 1") } }
        #expect(SQLiteStorageError(try #require(refused), path: path).reason == .readOnly)
    }

    @Test func aFileWithAnOlderSchemaIsNotReadWithoutWriteAccess() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        var older = DatabaseMigrator()
        older.registerMigration("v1: counters") { db in
            try db.create(table: "counter") { table in
                table.primaryKey("name", .text)
                table.column("value", .integer).notNull()
            }
        }
        _ = try SQLiteDatabase.open(path: path, migrator: older)
        let error = #expect(throws: SQLiteStorageError.self) { try SQLiteDatabase.open(path: path, access: .readOnly, migrator: Self.migrator) }
        #expect(error?.reason == .notMigrated)
    }
}

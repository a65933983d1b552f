import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import Testing

@testable import SpotlightKit

@Suite("Index databases: locks, migrations and read-only access")
struct IndexDatabaseTests {
    static let photoEntity = SpotlightEntity(
        table: "photo", indexedColumns: ["userSpecifiedName"],
        displayNameColumn: "userSpecifiedName", contentType: .image)

    @Test func aWriteWaitsForAnotherConnectionsWrite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.sqlite").path
        let holder = try IndexDatabase.open(path: path)
        let index = try SearchableIndex(name: "notes", database: holder)
        let waiting = try SearchableIndex(name: "notes", database: try DatabasePool(path: path, configuration: IndexDatabase.configuration))
        let held = Task.detached {
            try holder.write { db in
                try db.execute(sql: "INSERT INTO spotlightIndex (name, createdAt) VALUES ('other', 0)")
                // Wall time: SQLite's busy wait is on the real clock: the lock is held while the other write waits.
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        // Wall time: the holder takes SQLite's lock first.
        try await Task.sleep(for: .milliseconds(100))
        try await waiting.indexSearchableItems([textItem("n1", title: "Written while locked")])
        try await held.value
        #expect(try await index.itemCount() == 1)
    }

    @Test func processesOpeningAFreshIndexAtOnceAllSucceed() async throws {
        for _ in 0..<5 {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("fresh.sqlite").path
            // Separate pools stand for separate processes: each migrates on its own.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 0..<8 {
                    group.addTask {
                        let index = try SearchableIndex(name: "fresh", databasePath: path)
                        try await index.indexSearchableItems([textItem("n\(number)", title: "Note \(number)")])
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await SearchableIndex(name: "fresh", databasePath: path).itemCount() == 8)
        }
    }

    @Test func searchingAnUpToDateStoreNeedsNoWriteAccess() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let indexPath = directory.appendingPathComponent("index.sqlite").path
        try addPhoto("Arch at sunset", tags: ["Natural Bridges State Park"], to: pool)
        let first = try SpotlightDelegate(
            forStoreWith: pool, entities: [Self.photoEntity],
            indexDatabase: try IndexDatabase.open(path: indexPath))
        try await first.prepareForSearch()
        first.stopIndexing()

        // Both databases read-only, as on a home without write permission.
        var readOnly = IndexDatabase.configuration
        readOnly.readonly = true
        let store = try DatabasePool(path: directory.appendingPathComponent("tags.sqlite").path, configuration: readOnly)
        let indexDatabase = try DatabasePool(path: indexPath, configuration: readOnly)
        let delegate = try SpotlightDelegate(forStoreWith: store, entities: [Self.photoEntity], indexDatabase: indexDatabase)
        try await delegate.prepareForSearch()
        let results = try await userSearch("arch", context: UserQueryContext(fetchAttributes: ["displayName"]), in: delegate.searchableIndex)
        #expect(results.items.map(\.item.attributeSet.displayName) == ["Arch at sunset"])
        #expect(try await search(#"displayName == "arch*"c"#, in: delegate.searchableIndex).count == 1)
        delegate.stopIndexing()
    }

    @Test func historyTriggersAreRewrittenOnlyWhenTheyChange() throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entities = [Self.photoEntity]
        #expect(try pool.read { try HistoryTracking.triggersAreInstalled(entities: entities, relationships: [], in: $0) } == false)
        try pool.write { try HistoryTracking.installTriggers(entities: entities, relationships: [], in: $0) }
        #expect(try pool.read { try HistoryTracking.triggersAreInstalled(entities: entities, relationships: [], in: $0) })
        let other = [SpotlightEntity(table: "tag", indexedColumns: ["name"])]
        #expect(try pool.read { try HistoryTracking.triggersAreInstalled(entities: other, relationships: [], in: $0) } == false)
    }

    @Test func databaseErrorsAreWordsWithThePath() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("indexes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a database, just text".utf8).write(to: folder.appendingPathComponent("broken.sqlite"))
        let catalog = SearchIndexCatalog(intents: IntentCatalog(apps: []), directory: folder)
        do {
            _ = try await catalog.search(SearchRequest(text: "emma", indexNames: ["broken"]))
            Issue.record("a broken file was searched")
        } catch let error as SpotlightError {
            let text = error.description
            #expect(text.contains(folder.appendingPathComponent("broken.sqlite").path))
            #expect(text.contains("damaged"))
            #expect(!text.contains("SQLite") && !text.contains("SELECT"))
        }
    }

    @Test("An index file opens through SQLiteStorage: WAL, a 5 s busy timeout, SpotlightKit's functions on every connection")
    func anIndexFileOpensThroughSQLiteStorage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try IndexDatabase.open(path: directory.appendingPathComponent("notes.sqlite").path)
        let (mode, match) = try pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "SELECT spotlight_match(NULL, NULL, NULL)"))
        }
        #expect(mode == "wal")
        #expect(match == 0)
        // The writer waits for another process's lock; pool readers never need to (WAL).
        let (timeout, synchronous) = try pool.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA busy_timeout"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(timeout == Int(SQLiteDatabase.busyTimeout * 1000))
        #expect(synchronous == 1, "NORMAL, as for every database")
    }

    @Test("A file that is not a database is named, with the reason in words")
    func aFileThatIsNotADatabaseIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.sqlite").path
        try Data("just text, not a database, long enough to fill SQLite's header of one hundred bytes or so....".utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SearchableIndex(name: "notes", databasePath: path)
        } throws: { error in
            guard let error = error as? SQLiteStorageError else { return false }
            return error.path == path && error.reason == .notADatabase && !error.description.contains("SQLite error")
        }
    }
}

import Clockwork
import Foundation
import GRDB
import ShortcutsTestSupport
import Testing

@testable import SpotlightKit

// MARK: - The Tags app's store

struct Photo: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"
    var id: Int64?
    var userSpecifiedName: String
    var thumbnail: Data?
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct Tag: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tag"
    var id: Int64?
    var name: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PhotoTag: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "photoTag"
    var photoId: Int64
    var tagId: Int64
}

func tagsMigrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("tags.v1") { db in
        try db.execute(
            sql: """
                CREATE TABLE photo (id INTEGER PRIMARY KEY, userSpecifiedName TEXT NOT NULL, thumbnail BLOB);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE photoTag (
                    photoId INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
                    tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                    PRIMARY KEY (photoId, tagId)
                );
                """)
    }
    return migrator
}

/// The customized delegate of the Tags app: photos carry their tags as keywords.
final class TagsSpotlightDelegate: SpotlightDelegate, @unchecked Sendable {
    init(
        store: any DatabaseWriter, indexDatabase: (any DatabaseWriter)? = nil, batchSize: Int = 256, clock: any EngineClock = .system
    ) throws {
        try super.init(
            forStoreWith: store,
            entities: [
                SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"], contentType: .image),
                SpotlightEntity(table: "tag", indexedColumns: ["name"], contentType: .text)
            ],
            relationships: [
                .foreignKey(table: "photoTag", column: "photoId", parent: "photo"),
                .joinTable(table: "tag", joinTable: "photoTag", joinColumn: "tagId", parentColumn: "photoId", parent: "photo")
            ],
            indexDatabase: indexDatabase,
            batchSize: batchSize,
            pollInterval: .milliseconds(50),
            clock: clock)
    }

    override func domainIdentifier() -> String { "com.example.tags" }
    override func indexName() -> String? { "tags" }

    override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        switch object.table {
        case "photo":
            var set = SearchableItemAttributeSet(contentType: .image)
            set.displayName = object.row["userSpecifiedName"]
            set.thumbnailData = object.row["thumbnail"]
            set.keywords = try String.fetchAll(
                db,
                sql: """
                    SELECT tag.name FROM tag JOIN photoTag ON photoTag.tagId = tag.id
                    WHERE photoTag.photoId = ? ORDER BY tag.name
                    """, arguments: [object.rowID])
            return set
        case "tag":
            var set = SearchableItemAttributeSet(contentType: .text)
            set.displayName = object.row["name"]
            return set
        default:
            return nil
        }
    }
}

func found(_ query: String, in delegate: SpotlightDelegate) async throws -> [SearchableItem] {
    var items: [SearchableItem] = []
    for try await item in SearchQuery(
        queryString: query, attributes: ["displayName", "keywords", "contentType"],
        index: delegate.searchableIndex
    ).results {
        items.append(item)
    }
    return items
}

func makeTagsStore() throws -> (DatabasePool, URL) {
    let directory = try temporaryDirectory()
    let pool = try DatabasePool(path: directory.appendingPathComponent("tags.sqlite").path)
    try tagsMigrator().migrate(pool)
    return (pool, directory)
}

@discardableResult
func addPhoto(_ name: String, tags: [String], to writer: any DatabaseWriter) throws -> Int64 {
    try writer.write { db in
        var photo = Photo(id: nil, userSpecifiedName: name, thumbnail: Data([0xFF, 0xD8]))
        try photo.insert(db)
        for name in tags {
            var tag = try Tag.filter(Column("name") == name).fetchOne(db) ?? Tag(id: nil, name: name)
            if tag.id == nil { try tag.insert(db) }
            try PhotoTag(photoId: photo.id!, tagId: tag.id!).insert(db)
        }
        return photo.id!
    }
}

@Suite("Store indexing")
struct StoreIndexingTests {
    @Test func theTagsFlowEndToEnd() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arch = try addPhoto("Arch at sunset", tags: ["Natural Bridges State Park"], to: pool)
        try addPhoto("Beach", tags: ["Ocean"], to: pool)

        // Nothing is searchable before indexing starts.
        let delegate = try TagsSpotlightDelegate(store: pool)
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).isEmpty)

        // The two lines.
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(delegate.isIndexingEnabled)

        let photos = try await found(#"keywords == "natural*"cwdt"#, in: delegate)
        #expect(photos.count == 1)
        let photo = try #require(photos.first)
        #expect(photo.attributeSet.displayName == "Arch at sunset")
        #expect(photo.attributeSet.keywords == ["Natural Bridges State Park"])
        #expect(photo.domainIdentifier == "com.example.tags")
        let objectID = try #require(StoreObjectID(uniqueIdentifier: photo.uniqueIdentifier))
        #expect(objectID.table == "photo")
        #expect(objectID.rowID == arch)
        #expect(objectID.storeIdentifier == delegate.storeIdentifier)
        let fetched = try await pool.read { db in try Photo.fetchOne(db, key: objectID.rowID) }
        #expect(fetched?.userSpecifiedName == "Arch at sunset")

        // Spotlight shows two results for the tag: the tag itself and the tagged photo.
        let both = try await found(#"displayName == "natural bridges*"cd || keywords == "natural bridges*"cd"#, in: delegate)
        #expect(Set(both.map { $0.attributeSet.contentType }) == ["public.text", "public.image"])
        #expect(both.count == 2)

        // A full-text user query finds them too.
        var results: [String] = []
        for try await response in UserQuery(userQueryString: "natural bridg", index: delegate.searchableIndex).responses {
            if case .item(let result) = response { results.append(result.id) }
        }
        #expect(results.count == 2)
        delegate.stopIndexing()
    }

    @Test func changesAreIndexedIncrementally() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let delegate = try TagsSpotlightDelegate(store: pool)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(try await delegate.searchableIndex.itemCount() == 0)

        let updates = delegate.indexUpdates()
        let first = try addPhoto("Delicate Arch", tags: ["Arches National Park"], to: pool)
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "arches*"cwdt"#, in: delegate).count == 1)
        var iterator = updates.makeAsyncIterator()
        let update = try #require(await iterator.next())
        #expect(update.storeIdentifier == delegate.storeIdentifier)
        #expect(update.historyToken > 0)

        // Renaming a tag reaches the photos linked to it.
        try await pool.write { db in try db.execute(sql: "UPDATE tag SET name = 'Arches NP' WHERE name = 'Arches National Park'") }
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "Arches NP""#, in: delegate).count == 1)
        #expect(try await found(#"keywords == "arches national*"cw"#, in: delegate).isEmpty)

        // Unlinking a tag changes the photo.
        try await pool.write { db in try db.execute(sql: "DELETE FROM photoTag WHERE photoId = ?", arguments: [first]) }
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "arches*"cw"#, in: delegate).isEmpty)

        // Multi-row statements record every row.
        for number in 0..<20 { try addPhoto("Photo \(number)", tags: [], to: pool) }
        try await pool.write { db in try db.execute(sql: "UPDATE photo SET userSpecifiedName = 'Renamed ' || id") }
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"displayName == "renamed*"c"#, in: delegate).count == 21)
        try await pool.write { db in try db.execute(sql: "DELETE FROM photo WHERE id % 2 = 0") }
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"displayName == "renamed*"c"#, in: delegate).count == 11)

        // Consumed history is pruned.
        let remaining = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightHistory")! }
        #expect(remaining == 0)
        delegate.stopIndexing()
    }

    @Test func writesFromAnotherConnectionAreIndexed() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let delegate = try TagsSpotlightDelegate(store: pool)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()

        // A separate connection, as another process would have: only polling can see it.
        let other = try DatabaseQueue(path: directory.appendingPathComponent("tags.sqlite").path)
        try addPhoto("From elsewhere", tags: ["Remote"], to: other)
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "remote"c"#, in: delegate).count == 1)
        delegate.stopIndexing()
    }

    @Test func stoppedIndexingCatchesUpAfterRestart() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let delegate = try TagsSpotlightDelegate(store: pool)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        delegate.stopIndexing()
        #expect(!delegate.isIndexingEnabled)
        try addPhoto("While stopped", tags: ["Later"], to: pool)
        await #expect(throws: SpotlightError.indexingNotRunning(store: delegate.storeIdentifier)) {
            try await delegate.waitUntilIndexed(timeout: .milliseconds(100))
        }
        #expect(try await found(#"keywords == "later"c"#, in: delegate).isEmpty)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "later"c"#, in: delegate).count == 1)
        delegate.stopIndexing()
    }

    @Test func deletingTheIndexKeepsTheStoreAndRestartRestoresIt() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try addPhoto("Arch", tags: ["Natural Bridges State Park"], to: pool)
        try addPhoto("Owachomo", tags: ["Natural Bridges State Park", "Utah"], to: pool)
        let delegate = try TagsSpotlightDelegate(store: pool)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).count == 2)

        delegate.stopIndexing()
        try await delegate.deleteSpotlightIndex()
        #expect(try await delegate.searchableIndex.itemCount() == 0)
        #expect(try await delegate.currentHistoryToken() == nil)
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).isEmpty)
        let photoCount = try await pool.read { db in try Photo.fetchCount(db) }
        let tagCount = try await pool.read { db in try Tag.fetchCount(db) }
        #expect(photoCount == 2)
        #expect(tagCount == 2)
        let triggers = try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'spotlightHistory%'")!
        }
        #expect(triggers == 0)

        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).count == 2)
        #expect(try await delegate.searchableIndex.itemCount() == 4)
        delegate.stopIndexing()
    }

    @Test func aSeparateIndexDatabaseWorks() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let indexQueue = try DatabaseQueue(path: directory.appendingPathComponent("index.sqlite").path)
        try addPhoto("Arch", tags: ["Natural Bridges State Park"], to: pool)
        let delegate = try TagsSpotlightDelegate(store: pool, indexDatabase: indexQueue)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).count == 1)
        try addPhoto("Sipapu", tags: ["Natural Bridges State Park"], to: pool)
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).count == 2)
        let storeHasIndex = try await pool.read { db in try db.tableExists("spotlightItem") }
        #expect(!storeHasIndex)
        delegate.stopIndexing()
    }

    @Test func reindexDelegateRebuildsItems() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arch = try addPhoto("Arch", tags: ["Natural Bridges State Park"], to: pool)
        let delegate = try TagsSpotlightDelegate(store: pool)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        delegate.stopIndexing()

        let reindexer: any SearchableIndexDelegate = delegate
        try await delegate.searchableIndex.deleteAllSearchableItems()
        try await reindexer.reindexAll()
        #expect(try await delegate.searchableIndex.itemCount() == 2)

        let identifier = StoreObjectID(storeIdentifier: delegate.storeIdentifier, table: "photo", rowID: arch).uniqueIdentifier
        try await delegate.searchableIndex.deleteSearchableItems(withIdentifiers: [identifier])
        try await reindexer.reindex(identifiers: [identifier, "not-ours"])
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).map(\.uniqueIdentifier) == [identifier])

        try await pool.write { db in _ = try Photo.deleteOne(db, key: arch) }
        try await reindexer.reindex(identifiers: [identifier])
        #expect(try await found(#"keywords == "natural*"cwdt"#, in: delegate).isEmpty)
    }

    @Test func invalidConfigurationIsReported() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missingTable = try SpotlightDelegate(forStoreWith: pool, entities: [SpotlightEntity(table: "album", indexedColumns: ["name"])])
        #expect(throws: SpotlightError.invalidStoreConfiguration(store: missingTable.storeIdentifier, reason: "the table 'album' does not exist")) {
            try missingTable.startIndexing()
        }
        let missingColumn = try SpotlightDelegate(forStoreWith: pool, entities: [SpotlightEntity(table: "photo", indexedColumns: ["caption"])])
        #expect(throws: SpotlightError.self) { try missingColumn.startIndexing() }
        #expect(!missingColumn.isIndexingEnabled)
    }

    @Test func defaultAttributeSetUsesTheConfiguredColumns() async throws {
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try addPhoto("Mesa Arch", tags: [], to: pool)
        let delegate = try SpotlightDelegate(
            forStoreWith: pool,
            entities: [
                SpotlightEntity(
                    table: "photo", indexedColumns: ["userSpecifiedName", "id"], displayNameColumn: "userSpecifiedName", contentType: .jpeg)
            ])
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        let items = try await delegate.searchableIndex.fetchItems(withIdentifiers: [
            StoreObjectID(storeIdentifier: delegate.storeIdentifier, table: "photo", rowID: 1).uniqueIdentifier
        ])
        let item = try #require(items.first)
        #expect(item.attributeSet.displayName == "Mesa Arch")
        #expect(item.attributeSet.textContent == "Mesa Arch\n1")
        #expect(item.attributeSet.contentType == "public.jpeg")
        #expect(item.domainIdentifier == delegate.storeIdentifier)
        #expect(delegate.searchableIndex.name == "default")
        delegate.stopIndexing()
    }

    @Test func withAClockNobodyMovesChangesAreStillIndexedAndDatedByIt() async throws {
        // Waiting for the index is waiting for the indexer's turns, not a poll of the time.
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let delegate = try TagsSpotlightDelegate(store: pool, clock: clock)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        try addPhoto("Delicate Arch", tags: ["Arches National Park"], to: pool)
        try await delegate.waitUntilIndexed()
        #expect(try await found(#"keywords == "arches*"cwdt"#, in: delegate).count == 1)
        let dates = try await pool.read { db in try Double.fetchAll(db, sql: "SELECT indexedAt FROM spotlightItem") }
        #expect(!dates.isEmpty && dates.allSatisfy { $0 == clock.now().timeIntervalSince1970 })
        let updatedAt = try await pool.read { db in try Double.fetchAll(db, sql: "SELECT updatedAt FROM spotlightIndexerState") }
        #expect(updatedAt == [clock.now().timeIntervalSince1970])
        delegate.stopIndexing()
    }

    @Test func waitingForTheIndexTimesOutWhenTheClockPassesTheTimeout() async throws {
        // Every row fails to index, so the index never catches up: the wait ends, with the
        // indexer's error, when its clock passes the timeout.
        let (pool, directory) = try makeTagsStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try addPhoto("Unreadable", tags: [], to: pool)
        let clock = ManualClock()
        let start = clock.now()
        let delegate = try FailingSpotlightDelegate(
            forStoreWith: pool, entities: [SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"], contentType: .image)],
            clock: clock)
        try delegate.startIndexing()
        let waiting = Task { try await delegate.waitUntilIndexed(timeout: .seconds(30)) }
        try await clock.waitForSleeper(deadline: start.adding(.seconds(30)))
        clock.advance(by: .seconds(30))
        await #expect(throws: FailingSpotlightDelegate.Unreadable.self) { try await waiting.value }
        delegate.stopIndexing()
    }
}

/// A delegate that cannot make an item of any row.
final class FailingSpotlightDelegate: SpotlightDelegate, @unchecked Sendable {
    struct Unreadable: Error {}

    override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        throw Unreadable()
    }
}

import Clockwork
import Foundation
import GRDB
import ShortcutsTestSupport
import Testing

@testable import SpotlightKit

@Suite("Searchable index")
struct IndexTests {
    @Test func indexAndFetchRoundTripsEveryAttribute() async throws {
        let index = try makeIndex()
        var set = SearchableItemAttributeSet(contentType: .jpeg)
        set.title = "Arch"
        set.displayName = "Delicate Arch"
        set.textContent = "Sandstone"
        set.contentDescription = "Evening light"
        set.keywords = ["Utah", "Arches"]
        set.contentURL = URL(string: "file:///photos/arch.jpg")
        set.thumbnailData = Data([1, 2, 3])
        set.relatedUniqueIdentifier = "album-1"
        set.lastUsedDate = Date(timeIntervalSince1970: 1_700_000_000)
        set.rankingHint = 150
        set[customKey: "rating"] = .number(4.5)
        set[customKey: "taken"] = .date(Date(timeIntervalSince1970: 1_600_000_000))
        set[customKey: "people"] = .strings(["Ana", "Bo"])
        set[customKey: "camera"] = .string("X100")
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "p1", domainIdentifier: "photos", attributeSet: set)])

        let fetched = try #require(try await index.fetchItems(withIdentifiers: ["p1"]).first)
        let attributes = fetched.attributeSet
        #expect(fetched.domainIdentifier == "photos")
        #expect(attributes.title == "Arch")
        #expect(attributes.displayName == "Delicate Arch")
        #expect(attributes.keywords == ["Utah", "Arches"])
        #expect(attributes.contentType == "public.jpeg")
        #expect(attributes.contentURL?.absoluteString == "file:///photos/arch.jpg")
        #expect(attributes.thumbnailData == Data([1, 2, 3]))
        #expect(attributes.relatedUniqueIdentifier == "album-1")
        #expect(attributes.lastUsedDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(attributes.rankingHint == 100, "ranking hints are clamped to 0...100")
        #expect(attributes[customKey: "rating"] == .number(4.5))
        #expect(attributes[customKey: "taken"] == .date(Date(timeIntervalSince1970: 1_600_000_000)))
        #expect(attributes[customKey: "people"] == .strings(["Ana", "Bo"]))
        #expect(attributes[customKey: "camera"] == .string("X100"))
    }

    @Test func reindexingReplacesTheWholeItem() async throws {
        let index = try makeIndex()
        var first = textItem("a", title: "First", text: "body")
        first.attributeSet[customKey: "tag"] = .string("old")
        try await index.indexSearchableItems([first])
        try await index.indexSearchableItems([textItem("a", title: "Second")])
        let item = try #require(try await index.fetchItems(withIdentifiers: ["a"]).first)
        #expect(item.attributeSet.title == "Second")
        #expect(item.attributeSet.textContent == nil)
        #expect(item.attributeSet[customKey: "tag"] == nil)
        #expect(try await index.itemCount() == 1)
        #expect(try await search(#"textContent == "body""#, in: index).isEmpty)
        #expect(try await search(#"title == "Second""#, in: index) == ["a"])
    }

    @Test func isUpdateChangesOnlyAssignedAttributes() async throws {
        let index = try makeIndex()
        var original = textItem("a", title: "Title", text: "Body text", keywords: ["one"])
        original.attributeSet[customKey: "rating"] = .number(2)
        original.attributeSet[customKey: "color"] = .string("red")
        try await index.indexSearchableItems([original])

        var changes = SearchableItemAttributeSet()
        changes.lastUsedDate = Date(timeIntervalSince1970: 1_700_000_000)
        changes.textContent = nil
        changes[customKey: "rating"] = .number(5)
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "a", attributeSet: changes, isUpdate: true)])

        let item = try #require(try await index.fetchItems(withIdentifiers: ["a"]).first)
        #expect(item.attributeSet.title == "Title")
        #expect(item.attributeSet.keywords == ["one"])
        #expect(item.attributeSet.textContent == nil, "assigning nil removes the value")
        #expect(item.attributeSet.lastUsedDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(item.attributeSet[customKey: "rating"] == .number(5))
        #expect(item.attributeSet[customKey: "color"] == .string("red"))
        #expect(try await search(#"textContent == "body*"c"#, in: index).isEmpty, "the full-text index follows the update")
    }

    @Test func isUpdateForAMissingItemIsIgnored() async throws {
        let index = try makeIndex()
        var set = SearchableItemAttributeSet()
        set.title = "Ghost"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "ghost", attributeSet: set, isUpdate: true)])
        #expect(try await index.itemCount() == 0)
        #expect(try await index.fetchItems(withIdentifiers: ["ghost"]).isEmpty)
    }

    @Test func deleteByIdentifiers() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([textItem("a", title: "A"), textItem("b", title: "B"), textItem("c", title: "C")])
        try await index.deleteSearchableItems(withIdentifiers: ["a", "c", "missing"])
        #expect(try await search(#"title == "*""#, in: index) == ["b"])
    }

    @Test func deleteByDomainIncludesSubdomainsOnly() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "x", domain: "a.b"),
            textItem("2", title: "x", domain: "a.b.c"),
            textItem("3", title: "x", domain: "a.bc"),
            textItem("4", title: "x", domain: "a"),
            textItem("5", title: "x")
        ])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["a.b"])
        #expect(try await search(#"title == "x""#, in: index) == ["3", "4", "5"])
    }

    @Test func deleteAllLeavesOtherIndexesAlone() async throws {
        let queue = try DatabaseQueue()
        let notes = try SearchableIndex(name: "notes", database: queue)
        let photos = try SearchableIndex(name: "photos", database: queue)
        try await notes.indexSearchableItems([textItem("n1", title: "Shared title")])
        try await photos.indexSearchableItems([textItem("p1", title: "Shared title")])
        #expect(try await search(#"title == "Shared title""#, in: notes) == ["n1"])
        #expect(try await search(#"title == "Shared title""#, in: photos) == ["p1"])
        try await notes.deleteAllSearchableItems()
        #expect(try await notes.itemCount() == 0)
        #expect(try await photos.itemCount() == 1)
    }

    @Test func expiredItemsAreNeverReturnedAndArePurged() async throws {
        let queue = try DatabaseQueue()
        let clock = ManualClock()
        let index = try SearchableIndex(database: queue, clock: clock)
        let now = clock.now()
        try await index.indexSearchableItems([
            textItem("old", title: "x", expires: now.addingTimeInterval(-60)),
            textItem("soon", title: "x", expires: now.addingTimeInterval(3600)),
            textItem("keep", title: "x", expires: now.addingTimeInterval(7200))
        ])
        #expect(try await search(#"title == "x""#, in: index) == ["keep", "soon"], "an already expired item is not written")
        let later = QueryEnvironment(now: now.addingTimeInterval(5000))
        #expect(try await search(#"title == "x""#, in: index, environment: later) == ["keep"])
        #expect(try await userSearch("x", in: index, environment: later).items.map(\.id) == ["keep"])
        // Without an environment, "now" is the index's clock's time.
        clock.advance(by: .seconds(5000))
        #expect(try await search(#"title == "x""#, in: index) == ["keep"])
        #expect(try await index.fetchItems(withIdentifiers: ["soon", "keep"]).map(\.uniqueIdentifier) == ["keep"])
        #expect(try await index.itemCount() == 1)
        let purged = try await index.purgeExpiredItems()
        #expect(purged == 1)
        let rows = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightItem")! }
        #expect(rows == 1)
        let ftsRows = try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightItemFTS WHERE spotlightItemFTS MATCH 'x'")!
        }
        #expect(ftsRows == 1, "purging also removes the full-text entry")
    }

    @Test func itemsAreDatedByTheIndexsClock() async throws {
        let queue = try DatabaseQueue()
        let clock = ManualClock()
        let index = try SearchableIndex(name: "dated", database: queue, clock: clock)
        try await index.indexSearchableItems([textItem("n1", title: "Indexed now")])
        clock.advance(by: .seconds(90))
        try await index.indexSearchableItems([textItem("n2", title: "Indexed later")])
        let dates = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT uniqueIdentifier, indexedAt FROM spotlightItem ORDER BY uniqueIdentifier")
                .map { row -> Double in row["indexedAt"] }
        }
        #expect(dates == [1_800_000_000, 1_800_000_090])
        let created: Double? = try await queue.read { db in
            try Double.fetchOne(db, sql: "SELECT createdAt FROM spotlightIndex WHERE name = 'dated'")
        }
        #expect(created == 1_800_000_000)
    }

    @Test func timeNowInAQueryIsTheIndexsClock() async throws {
        let clock = ManualClock()
        let index = try SearchableIndex(database: try DatabaseQueue(), clock: clock)
        try await index.indexSearchableItems([textItem("recent", title: "Used", lastUsed: clock.now().addingTimeInterval(-60))])
        #expect(try await search("lastUsedDate > $time.now(-3600)", in: index) == ["recent"])
        clock.advance(by: .seconds(7200))
        #expect(try await search("lastUsedDate > $time.now(-3600)", in: index) == [])
    }

    @Test func batchWritesItemsAndClientStateTogether() async throws {
        let index = try makeIndex()
        #expect(try await index.fetchLastClientState() == nil)
        try await index.beginBatch()
        try await index.indexSearchableItems([textItem("a", title: "A")])
        try await index.deleteSearchableItems(withIdentifiers: ["zzz"])
        #expect(try await index.itemCount() == 0, "nothing is written before endBatch")
        try await index.endBatch(expectedClientState: nil, newClientState: Data("v1".utf8))
        #expect(try await index.itemCount() == 1)
        #expect(try await index.fetchLastClientState() == Data("v1".utf8))

        try await index.beginBatch()
        try await index.indexSearchableItems([textItem("b", title: "B")])
        try await index.endBatch(expectedClientState: Data("v1".utf8), newClientState: Data("v2".utf8))
        #expect(try await index.fetchLastClientState() == Data("v2".utf8))
        #expect(try await index.itemCount() == 2)
    }

    @Test func batchWithWrongExpectedStateWritesNothing() async throws {
        let index = try makeIndex()
        try await index.beginBatch()
        try await index.endBatch(expectedClientState: nil, newClientState: Data("v1".utf8))

        try await index.beginBatch()
        try await index.indexSearchableItems([textItem("a", title: "A")])
        await #expect(throws: SpotlightError.clientStateMismatch(index: "default", expected: Data("v0".utf8), actual: Data("v1".utf8))) {
            try await index.endBatch(expectedClientState: Data("v0".utf8), newClientState: Data("v2".utf8))
        }
        #expect(try await index.itemCount() == 0)
        #expect(try await index.fetchLastClientState() == Data("v1".utf8))
        #expect(await index.isBatchOpen == false)
    }

    @Test func batchMisuseIsReported() async throws {
        let index = try makeIndex()
        await #expect(throws: SpotlightError.noOpenBatch(index: "default")) {
            try await index.endBatch(clientState: Data())
        }
        try await index.beginBatch()
        await #expect(throws: SpotlightError.batchAlreadyOpen(index: "default")) {
            try await index.beginBatch()
        }
        try await index.endBatch(clientState: Data("x".utf8))
        #expect(try await index.fetchLastClientState() == Data("x".utf8))
    }

    @Test func failingBatchLeavesNoPartialWrite() async throws {
        // A batch is one transaction: when a statement fails, earlier statements of the batch roll back.
        let queue = try DatabaseQueue()
        let index = try SearchableIndex(database: queue)
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER failOnPoison BEFORE INSERT ON spotlightItem WHEN new.uniqueIdentifier = 'poison'
                    BEGIN SELECT RAISE(ABORT, 'poisoned'); END
                    """)
        }
        try await index.beginBatch()
        try await index.indexSearchableItems([textItem("a", title: "A"), textItem("poison", title: "P")])
        await #expect(throws: DatabaseError.self) {
            try await index.endBatch(expectedClientState: nil, newClientState: Data("v1".utf8))
        }
        #expect(try await index.itemCount() == 0)
        #expect(try await index.fetchLastClientState() == nil)
    }

    @Test func fileBackedIndexUsesWALAndReopens() async throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("index.sqlite").path
        do {
            let index = try SearchableIndex(name: "notes", databasePath: path)
            try await index.indexSearchableItems([textItem("a", title: "Persisted")])
            let mode = try await index.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
        let reopened = try SearchableIndex(name: "notes", databasePath: path)
        #expect(try await search(#"title == "persisted"c"#, in: reopened) == ["a"])
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func schemaHasTheDocumentedTables() async throws {
        let queue = try DatabaseQueue()
        _ = try SearchableIndex(database: queue)
        let names = try await queue.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")
        }
        for name in [
            "spotlightIndex", "spotlightItem", "spotlightItemFTS", "spotlightItemVocabulary",
            "spotlightCustomAttribute", "spotlightEngagement", "spotlightIndexerState",
            "spotlightItem_afterDelete"
        ] {
            #expect(names.contains(name), "\(name)")
        }
        let fts = try await queue.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'spotlightItemFTS'")
        }
        #expect(fts?.contains("unicode61 remove_diacritics 2") == true)
        #expect(fts?.contains("prefix = '2 3 4'") == true)
        let migrations = try await queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.allSatisfy { $0.hasPrefix("SpotlightKit.") })
    }

    @Test func fullTextIndexStaysConsistentWithItems() async throws {
        let queue = try DatabaseQueue()
        let index = try SearchableIndex(database: queue)
        try await index.indexSearchableItems(
            (0..<50).map {
                textItem(
                    "i\($0)", title: "Title \($0)", text: "Body \($0)", keywords: ["k\($0 % 5)"], domain: "d\($0 % 3)",
                    expires: $0 % 7 == 0 ? Date().addingTimeInterval(1) : nil)
            })
        try await index.indexSearchableItems((0..<20).map { textItem("i\($0)", title: "Renamed \($0)") })
        var update = SearchableItemAttributeSet()
        update.keywords = ["changed"]
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "i30", attributeSet: update, isUpdate: true)])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["d1"])
        try await index.deleteSearchableItems(withIdentifiers: ["i2", "i4", "i40"])
        try await index.purgeExpiredItems(now: Date().addingTimeInterval(5))
        try await queue.write { db in
            // Raises SQLITE_CORRUPT_VTAB when the full-text index and the items disagree.
            try db.execute(sql: "INSERT INTO spotlightItemFTS(spotlightItemFTS, rank) VALUES ('integrity-check', 1)")
        }
        let fullText = try await userSearch("renamed", in: index).items.count
        let scanned = try await search(#"title == "renamed*"c"#, in: index).count
        #expect(fullText == scanned)
        #expect(scanned > 0)
        #expect(try await userSearch("changed", in: index).items.map(\.id) == ["i30"])
    }
}

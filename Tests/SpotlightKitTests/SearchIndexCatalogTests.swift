import Foundation
import GRDB
import IntentKit
import Synchronization
import Testing

@testable import SpotlightKit

/// Two "apps": Tags keeps a store-backed index of photos; Notes has an entity but no index of
/// its own, and its notes are in an index file that some other program wrote.
struct CatalogFixture {
    let directory: URL
    let indexes: URL
    let store: DatabasePool
    let delegate: TagsSpotlightDelegate
    let catalog: SearchIndexCatalog
    let noteIDs: [String]

    init() async throws {
        directory = try temporaryDirectory()
        indexes = directory.appendingPathComponent("indexes")
        store = try DatabasePool(path: directory.appendingPathComponent("tags.sqlite").path)
        try tagsMigrator().migrate(store)
        let indexDatabase = try SearchIndexCatalog.openIndexDatabase(named: "tags", in: indexes)
        let delegate = try TagsSpotlightDelegate(store: store, indexDatabase: indexDatabase)
        self.delegate = delegate
        let tags = IntentApp(name: "Tags", intents: [], features: [AppSearchIndex(name: "tags") { delegate }])
        let notesApp = IntentApp(name: "Notes", intents: [], entities: [NoteEntity.self])
        catalog = SearchIndexCatalog(intents: IntentCatalog(apps: [tags, notesApp]), directory: indexes)

        let prefix = UUID().uuidString
        let notes = [
            NoteEntity(id: prefix + "-1", title: "Natural arches of Utah", author: "Ed Abbey"),
            NoteEntity(id: prefix + "-2", title: "Ocean swims", author: "Lynne Cox")
        ]
        NoteStore.add(notes)
        noteIDs = notes.map(\.id)
        let notesIndex = try SearchableIndex(name: "notes", database: try SearchIndexCatalog.openIndexDatabase(named: "notes", in: indexes))
        try await notesIndex.beginBatch()
        try await notesIndex.indexAppEntities(notes)
        try await notesIndex.indexSearchableItems([textItem("loose", title: "Natural wine list")])
        try await notesIndex.endBatch(clientState: Data("notes v1".utf8))
    }
}

@Suite("Search index catalog")
struct SearchIndexCatalogTests {
    @Test func namesComeFromTheAppsAndTheIndexFiles() async throws {
        let fixture = try await CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        #expect(fixture.catalog.indexNames == ["notes", "tags"])
        #expect(fixture.catalog.appIndex(named: "tags")?.app.name == "Tags")
        #expect(fixture.catalog.appIndex(named: "notes") == nil)
        await #expect(throws: SpotlightError.unknownIndex(name: "tag", known: ["notes", "tags"])) {
            _ = try await fixture.catalog.open("tag")
        }
        #expect(
            SpotlightError.unknownIndex(name: "tag", known: ["notes", "tags"]).description
                == "no search index named 'tag'\nhelp: did you mean 'tags'?")
    }

    @Test func searchingEveryIndexCatchesUpWithTheStoreAndResolvesEntities() async throws {
        let fixture = try await CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try addPhoto("Arch at sunset", tags: ["Natural Bridges State Park"], to: fixture.store)

        // The store changed before anything was indexed: the search brings the index up to date.
        let response = try await fixture.catalog.search(SearchRequest(text: "natural", maxSuggestionCount: 2))
        let byIndex = Dictionary(grouping: response.hits, by: \.indexName)
        #expect(byIndex["tags"]?.count == 2)  // the photo and the tag
        #expect(byIndex["notes"]?.count == 2)  // the note and the loose item
        let note = try #require(response.hits.first { $0.entity != nil })
        #expect(note.entityTypeName == "Notes.NoteEntity")
        guard case .entity(let value)? = note.entity else {
            Issue.record("not an entity")
            return
        }
        #expect(value.identifier == fixture.noteIDs[0])
        #expect(value.properties["author"] == .string("Ed Abbey"))
        #expect(response.hits.map(\.score!) == response.hits.map(\.score!).sorted(by: >))

        // Another change from "another process" (a separate connection) is found by the next search.
        let other = try DatabaseQueue(path: fixture.directory.appendingPathComponent("tags.sqlite").path)
        try addPhoto("Owachomo", tags: ["Natural Bridges State Park"], to: other)
        let photos = try await fixture.catalog.search(
            SearchRequest(
                text: #"keywords == "natural*"cwdt"#, language: .queryString,
                indexNames: ["tags"]))
        #expect(photos.hits.count == 2)
        #expect(photos.hits.allSatisfy { $0.score == nil })
    }

    @Test func entityTypeFiltersAndLimitsApply() async throws {
        let fixture = try await CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let notes = try await fixture.catalog.search(SearchRequest(text: "", entityType: NoteEntity.self))
        #expect(Set(notes.hits.map(\.item.uniqueIdentifier)) == Set(fixture.noteIDs.map { "x-entity://NoteEntity/\($0)" }))
        let one = try await fixture.catalog.search(SearchRequest(text: "", indexNames: ["notes"], limit: 1))
        #expect(one.hits.count == 1)
        let filtered = try await fixture.catalog.search(
            SearchRequest(
                text: "natural", indexNames: ["notes"],
                filterQueries: [#"author == "ed*"cd"#]))
        #expect(filtered.hits.map(\.item.uniqueIdentifier) == ["x-entity://NoteEntity/\(fixture.noteIDs[0])"])
        await #expect(throws: SpotlightError.self) {
            _ = try await fixture.catalog.search(SearchRequest(text: "x", filterQueries: ["title =="]))
        }
    }

    @Test func statusShowsDomainsVocabularyClientStateAndHistoryToken() async throws {
        let fixture = try await CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try addPhoto("Arch", tags: ["Utah"], to: fixture.store)
        _ = try await fixture.catalog.search(SearchRequest(text: "arch", indexNames: ["tags"]))
        fixture.delegate.stopIndexing()
        try addPhoto("Mesa", tags: [], to: fixture.store)

        let tags = try await fixture.catalog.status(ofIndexNamed: "tags")
        #expect(tags.appName == "Tags")
        #expect(tags.itemCount == 2)
        #expect(tags.itemCountsByDomain == ["com.example.tags": 2])
        #expect(tags.vocabularySize >= 2)
        #expect(tags.historyToken != nil)
        #expect(tags.pendingChangeCount == 1)
        #expect(tags.isIndexingSwitchedOff == false)
        #expect(tags.lastClientState == nil)

        let notes = try await fixture.catalog.status(ofIndexNamed: "notes")
        #expect(notes.appName == nil)
        #expect(notes.itemCountsByDomain == ["NoteEntity": 2, "": 1])
        #expect(notes.lastClientStateDescription == "notes v1")
        #expect(notes.historyToken == nil)
        #expect(notes.isIndexingSwitchedOff == nil)
        #expect(notes.path.hasSuffix("indexes/notes.sqlite"))
    }

    @Test func switchingOffLastsAcrossProcessesUntilARebuild() async throws {
        let fixture = try await CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try addPhoto("Arch", tags: ["Natural Bridges State Park"], to: fixture.store)
        let request = SearchRequest(text: #"keywords == "natural*"cwdt"#, language: .queryString, indexNames: ["tags"])
        #expect(try await fixture.catalog.search(request).hits.count == 1)

        try await fixture.delegate.switchIndexingOff()
        #expect(try await fixture.catalog.search(request).hits.isEmpty)
        #expect(try await fixture.store.read { db in try Photo.fetchCount(db) } == 1)

        // A later process opens its own delegate: indexing stays off, changes are not indexed.
        let later = try TagsSpotlightDelegate(
            store: fixture.store,
            indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: "tags", in: fixture.indexes))
        #expect(try await later.isIndexingSwitchedOff())
        try addPhoto("Sipapu", tags: ["Natural Bridges State Park"], to: fixture.store)
        try await later.prepareForSearch()
        #expect(!later.isIndexingEnabled)
        #expect(try await later.searchableIndex.itemCount() == 0)

        let reports = Mutex<[IndexingProgress]>([])
        try await later.rebuildIndex { progress in reports.withLock { $0.append(progress) } }
        #expect(try await !later.isIndexingSwitchedOff())
        #expect(try await fixture.catalog.search(request).hits.count == 2)
        let seen = reports.withLock { $0 }
        #expect(seen.first == IndexingProgress(completedCount: 0, totalCount: 3))  // two photos and their one tag
        #expect(seen.last?.completedCount == seen.last?.totalCount)
        #expect(seen.map(\.completedCount) == seen.map(\.completedCount).sorted())
        later.stopIndexing()
        fixture.delegate.stopIndexing()
    }
}

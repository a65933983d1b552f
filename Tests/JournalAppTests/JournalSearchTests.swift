import Foundation
import GRDB
import IntentKit
import SpotlightKit
import Synchronization
import Testing

@testable import JournalApp

/// The diary of the semantic-search talk: batches with client state, ranked results with top
/// hits, and suggestions.
///
/// Each test has its own folder, deleted when the test's instance goes away, after its
/// databases are closed: deleting the files of an open `DatabasePool` lets a connection it
/// opens later find a `-wal` without its `-shm` (or the reverse), which SQLite reports as
/// "disk I/O error".
@Suite("Journal search")
final class JournalSearchTests: Sendable {
    let directory: URL
    let database: JournalDatabase
    let indexer: JournalIndexer
    private let indexDatabases = Mutex<[any DatabaseWriter]>([])

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try JournalDatabase(path: directory.appendingPathComponent("journal.sqlite").path)
        let indexDatabase = try SearchIndexCatalog.openIndexDatabase(named: "journal", in: directory.appendingPathComponent("indexes"))
        indexer = try JournalIndexer(database: database, indexDatabase: indexDatabase)
        indexDatabases.withLock { $0.append(indexDatabase) }
    }

    deinit {
        for indexDatabase in indexDatabases.withLock({ $0 }) { try? indexDatabase.close() }
        try? database.writer.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func makeIndexer() throws -> JournalIndexer {
        let indexDatabase = try SearchIndexCatalog.openIndexDatabase(named: "journal", in: directory.appendingPathComponent("indexes"))
        indexDatabases.withLock { $0.append(indexDatabase) }
        return try JournalIndexer(database: database, indexDatabase: indexDatabase)
    }

    func search(_ text: String, suggestions: Int = 0) async throws -> (items: [UserQuery.Item], suggestions: [UserQuery.Suggestion]) {
        let context = UserQueryContext(
            fetchAttributes: ["title"], enableRankedResults: true, maxRankedResultCount: 2,
            maxSuggestionCount: suggestions)
        var items: [UserQuery.Item] = []
        var suggested: [UserQuery.Suggestion] = []
        for try await response in UserQuery(userQueryString: text, context: context, index: indexer.searchableIndex).responses {
            switch response {
            case .item(let item): items.append(item)
            case .suggestion(let suggestion): suggested.append(suggestion)
            }
        }
        return (items.sorted { $0.compare(byRank: $1) == .orderedAscending }, suggested)
    }

    func titles(_ text: String) async throws -> [String] {
        try await search(text).items.compactMap(\.item.attributeSet.title)
    }

    @Test func theSampleDiaryIsIndexedInOneBatchWithItsRevision() async throws {
        #expect(try await indexer.searchableIndex.fetchLastClientState() == nil)
        try await indexer.prepareForSearch()
        #expect(try await indexer.searchableIndex.itemCount() == 7)
        #expect(try await indexer.searchableIndex.fetchLastClientState() == Data("revision 7".utf8))

        // Only what changed is indexed next time.
        try database.save(
            EntryEntity(
                title: "Kelp forest dive", text: "Cold, green, full of fish off Carmel.",
                keywords: ["diving"], date: DateText.parse("2025-12-01")!))
        try await indexer.prepareForSearch()
        #expect(try await indexer.searchableIndex.itemCount() == 8)
        #expect(try await indexer.searchableIndex.fetchLastClientState() == Data("revision 8".utf8))
        #expect(try await titles("kelp forest") == ["Kelp forest dive"])
    }

    @Test func rankedResultsTopHitsAndSuggestions() async throws {
        try await indexer.prepareForSearch()
        // The talk's example query: every word must match.
        let windsurfing = try await search("windsurfing carmel")
        #expect(windsurfing.items.map(\.item.attributeSet.title) == ["Windsurfing in Carmel"])
        #expect(windsurfing.items.first?.isTopHit == true)

        let carmel = try await search("carmel")
        #expect(carmel.items.map(\.item.attributeSet.title) == ["Windsurfing in Carmel", "Tide pools at Point Lobos"])
        #expect(carmel.items.allSatisfy { $0.isTopHit })
        #expect(carmel.items[0].score >= carmel.items[1].score)

        let completion = try await search("windsurf", suggestions: 3).suggestions
        #expect(completion.first?.text == "windsurfing")
        #expect(completion.first?.kind == .completion)
        let correction = try await search("carmle", suggestions: 3)
        #expect(correction.items.isEmpty)
        #expect(correction.suggestions.map(\.text).contains("carmel"))

        // Japanese entries are found by their keywords and the words of their text.
        #expect(try await titles("紅葉") == ["嵐山の紅葉"])
        #expect(try await titles("ウィンドサーフィン") == ["江ノ島でウィンドサーフィン"])
    }

    @Test func openingAnEntryMakesItFresh() async throws {
        try await indexer.prepareForSearch()
        let lobos = try #require(try await database.allEntries().first { $0.title == "Tide pools at Point Lobos" })
        var opened = lobos
        opened.lastOpened = Date()
        try database.save(opened)
        try await indexer.prepareForSearch()
        let result = try #require(try await search("carmel").items.first { $0.item.attributeSet.title == lobos.title })
        #expect(result.explanation.freshness > 0.99)
    }

    @Test func deletingTheIndexKeepsTheDiaryUntilARebuild() async throws {
        try await indexer.prepareForSearch()
        try await indexer.switchIndexingOff()
        #expect(try await indexer.searchableIndex.itemCount() == 0)
        #expect(try database.allEntries().count == 7)

        // Another process's indexer sees that indexing is off.
        let other = try makeIndexer()
        #expect(try await other.isIndexingSwitchedOff())
        try await other.prepareForSearch()
        #expect(try await other.searchableIndex.itemCount() == 0)

        try await other.rebuildIndex(progress: { _ in })
        #expect(try await indexer.searchableIndex.itemCount() == 7)
        #expect(try await !indexer.isIndexingSwitchedOff())
        #expect(try await titles("sourdough") == ["Sourdough, third try"])

        // Reindexing identifiers puts back lost items.
        let item = SearchableItem(appEntity: try #require(try database.allEntries().first))
        try await indexer.searchableIndex.deleteSearchableItems(withIdentifiers: [item.uniqueIdentifier])
        try await indexer.reindex(identifiers: [item.uniqueIdentifier])
        #expect(try await indexer.searchableIndex.itemCount() == 7)
    }

    @Test func twoProcessesIndexingAtOnceAgreeOnTheClientState() async throws {
        let other = try makeIndexer()
        async let first: Void = indexer.prepareForSearch()
        async let second: Void = other.prepareForSearch()
        _ = try await (first, second)
        #expect(try await indexer.searchableIndex.itemCount() == 7)
        #expect(try await indexer.searchableIndex.fetchLastClientState() == Data("revision 7".utf8))
    }
}

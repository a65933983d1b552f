import Foundation
import IntentKit
import SpotlightKit
import Testing

@testable import LibraryApp

/// The Library's books in its search index, kept by its Spotlight delegate.
@Suite("Library search")
struct LibrarySearchTests {
    func items(_ text: String, filters: [String] = [], in index: SearchableIndex) async throws -> [SearchableItem] {
        let context = UserQueryContext(
            fetchAttributes: ["title", "contentDescription"] + AppEntityResolver.referenceAttributes,
            filterQueries: filters)
        var found: [SearchableItem] = []
        for try await response in UserQuery(userQueryString: text, context: context, index: index).responses {
            if case .item(let result) = response { found.append(result.item) }
        }
        return found
    }

    @Test func booksAreFoundAfterChangesFromAnyConnection() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("library.sqlite").path
        let indexes = directory.appendingPathComponent("indexes")
        let database = try LibraryDatabase(path: path)
        let crawdads = BookEntity(
            title: "Where the Crawdads Sing", author: "Delia Owens", datePublished: DateText.parse("2018-08-14")!,
            shelf: .read)
        let emma = BookEntity(title: "Emma", author: "Jane Austen", datePublished: DateText.parse("1815-12-23")!)
        try database.save(crawdads)
        try database.save(emma)

        let delegate = try LibrarySpotlightDelegate(
            database: database, indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: "library", in: indexes))
        defer { delegate.stopIndexing() }
        try await delegate.prepareForSearch()
        let found = try await items("owens", in: delegate.searchableIndex)
        let item = try #require(found.first)
        #expect(found.count == 1)
        #expect(item.attributeSet.title == "Where the Crawdads Sing")
        #expect(item.attributeSet.contentDescription == "Delia Owens")
        #expect(item.associatedAppEntity == AppEntityReference(crawdads))
        #expect(item.domainIdentifier == "BookEntity")
        // The book's properties are custom attributes, for filters.
        #expect(try await items("", filters: [#"shelf == "read""#], in: delegate.searchableIndex).count == 1)
        #expect(
            try await items("", filters: [#"author == "jane*"cd"#], in: delegate.searchableIndex).map(\.associatedAppEntity)
                == [AppEntityReference(emma)])

        // Another process deletes a book and adds one; a later process's delegate catches up.
        let other = try LibraryDatabase(path: path)
        try other.delete(emma.id)
        try other.save(BookEntity(title: "Persuasion", author: "Jane Austen", datePublished: DateText.parse("1817-12-20")!))
        let later = try LibrarySpotlightDelegate(
            database: other, indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: "library", in: indexes))
        defer { later.stopIndexing() }
        try await later.prepareForSearch()
        #expect(try await items("emma", in: later.searchableIndex).isEmpty)
        #expect(try await items("austen", in: later.searchableIndex).map(\.attributeSet.title) == ["Persuasion"])
    }
}

import Foundation
import IntentKit
import Testing

@testable import LibraryApp

/// The Library's SQL pushdown must agree with IntentKit's in-memory comparisons.
@Suite(.serialized)
struct BookQueryTests {
    static let prepared: Bool = {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("library-tests-\(UUID().uuidString)")
        setenv("SHORTCUTS_HOME", home.path, 1)
        return true
    }()

    init() async throws {
        _ = Self.prepared
        try await LibraryApp.app.setUp()
        let database = try LibraryDatabase.shared()
        for book in try database.allBooks() { try database.delete(book.id) }
        for entry in BookCatalog.bundled.entries where ["Delia Owens", "Agatha Christie", "Émile Zola"].contains(entry.author) {
            try database.save(BookEntity(title: entry.title, author: entry.author, datePublished: entry.publicationDate))
        }
        var read = try #require(try database.books(matching: "Crawdads").first)
        read.dateRead = DateText.parse("2020-05-01")
        read.shelf = .read
        try database.save(read)
    }

    static let conditions: [PropertyCondition] = [
        .init(property: "title", comparator: .equalTo, operands: [.string("where the crawdads sing")]),
        .init(property: "title", comparator: .notEqualTo, operands: [.string("Nemesis")]),
        .init(property: "title", comparator: .contains, operands: [.string("MURDER")]),
        .init(property: "title", comparator: .hasPrefix, operands: [.string("the ")]),
        .init(property: "title", comparator: .hasSuffix, operands: [.string("express")]),
        .init(property: "author", comparator: .equalTo, operands: [.string("emile zola")]),
        .init(property: "author", comparator: .contains, operands: [.string("owens")]),
        .init(property: "datePublished", comparator: .lessThan, operands: [.string("1930-01-01")]),
        .init(property: "datePublished", comparator: .lessThanOrEqualTo, operands: [.string("1984-01-01")]),
        .init(property: "datePublished", comparator: .greaterThan, operands: [.string("1990-01-01")]),
        .init(property: "datePublished", comparator: .greaterThanOrEqualTo, operands: [.string("2018-08-14")]),
        .init(property: "datePublished", comparator: .equalTo, operands: [.string("2018-08-14")]),
        .init(property: "datePublished", comparator: .isBetween, operands: [.string("1920-01-01"), .string("1939-12-31")]),
        .init(property: "dateRead", comparator: .greaterThan, operands: [.string("2019-01-01")]),
        .init(property: "shelf", comparator: .equalTo, operands: [.string("Read")]),
        .init(property: "shelf", comparator: .notEqualTo, operands: [.string("read")])
    ]

    @Test(arguments: conditions)
    func pushedDownComparatorsAgreeWithInMemoryOnes(condition: PropertyCondition) async throws {
        let everything = try LibraryDatabase.shared().allBooks().map(\.intentValue)
        let expected = try EntityQueries.filter(everything, conditions: [condition], sortedBy: [PropertySort(property: "title")])
        let found = try await EntityQueries.find(BookEntity.self, conditions: [condition], sortedBy: [PropertySort(property: "title")])
        #expect(!expected.isEmpty)
        #expect(found.map(\.displayText) == expected.map(\.displayText))
    }

    @Test func theNewestBooksOfAnAuthorAreFoundSortedAndLimited() async throws {
        let found = try await EntityQueries.find(
            BookEntity.self,
            conditions: [
                PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Delia Owens")]),
                PropertyCondition(property: "datePublished", comparator: .greaterThan, operands: [.string("1900-01-01")])
            ],
            sortedBy: [PropertySort(property: "datePublished", order: .descending)], limit: 3)
        #expect(found.map(\.displayText) == ["Where the Crawdads Sing", "Secrets of the Savanna", "The Eye of the Elephant"])
    }

    @Test func anyModeMatchesEitherCondition() async throws {
        let found = try await EntityQueries.find(
            BookEntity.self,
            conditions: [
                PropertyCondition(property: "title", comparator: .equalTo, operands: [.string("Nemesis")]),
                PropertyCondition(property: "title", comparator: .equalTo, operands: [.string("thérèse raquin")])
            ],
            mode: .or, sortedBy: [PropertySort(property: "title")])
        #expect(found.map(\.displayText) == ["Nemesis", "Thérèse Raquin"])
    }

    @Test func undeclaredComparatorsAndSortsAreRefused() async throws {
        await #expect(throws: EntityQueryError.self) {
            try await EntityQueries.find(
                BookEntity.self, conditions: [PropertyCondition(property: "dateRead", comparator: .equalTo, operands: [.string("2020-01-01")])])
        }
        await #expect(
            throws: EntityQueryError.notSortable(entity: "BookEntity", property: "shelf", sortable: ["title", "author", "datePublished", "dateRead"])
        ) {
            try await EntityQueries.find(BookEntity.self, conditions: [], sortedBy: [PropertySort(property: "shelf")])
        }
    }

    @Test func anEmptyLibraryAnswersWithNoBooks() async throws {
        let database = try LibraryDatabase.shared()
        for book in try database.allBooks() { try database.delete(book.id) }
        let found = try await EntityQueries.find(
            BookEntity.self, conditions: [PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Delia Owens")])])
        #expect(found.isEmpty)
    }

    @Test func theCatalogHoldsRealBooksWithAmbiguousTitles() {
        let catalog = BookCatalog.bundled
        #expect(catalog.entries.count >= 200)
        #expect(catalog.findBooks(named: "Where the Crawdads Sing", author: nil).books.first?.firstPublished == "2018-08-14")
        #expect(Set(catalog.findBooks(named: "Nemesis", author: nil).books.map(\.author)).count == 3)
        #expect(catalog.entries.filter { $0.author == "Delia Owens" }.count == 4)
    }
}

import Foundation
import GRDB
import IntentKit
import Synchronization
import Testing

@testable import LibraryApp

/// One book per catalog entry, in the schema.
@Suite("Book uniqueness")
struct BookUniquenessTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-unique-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var curtain: BookCatalog.Entry { BookCatalog.bundled.findBooks(named: "Curtain", author: nil).books[0] }

    @Test func concurrentAddsOfOneEntryStoreOneBookAndReturnIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let entry = curtain
        let added = Mutex<[UUID]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            // One database per thread, as separate processes would have.
            let book = try? LibraryDatabase(path: path).addBook(entry, shelf: .read, recommendedBy: index == 3 ? "Ada" : nil)
            if let book { added.withLock { $0.append(book.id) } }
        }
        #expect(added.withLock { Set($0).count } == 1)
        #expect(added.withLock { $0.count } == 8)
        let books = try LibraryDatabase(path: path).allBooks()
        #expect(books.map(\.title) == ["Curtain"])
        #expect(books.first?.recommendedBy == "Ada")
    }

    @Test func theMigrationKeepsTheFirstOfDuplicatesAddedBeforeIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(
                function: DatabaseFunction("fold", argumentCount: 1, pure: true) { values in
                    String.fromDatabaseValue(values[0]).map(ValueComparison.fold)
                })
        }
        let older = try DatabaseQueue(path: path, configuration: configuration)
        try LibraryDatabase.migrator.migrate(older, upTo: "v2: folded title and author keys")
        let first = BookEntity(title: "Curtain", author: curtain.author, datePublished: curtain.publicationDate)
        try older.write { db in
            try BookRecord(first).insert(db)
            try BookRecord(BookEntity(title: "CURTAIN", author: curtain.author, datePublished: curtain.publicationDate)).insert(db)
            try BookRecord(BookEntity(title: "Emma", author: "Jane Austen", datePublished: Date())).insert(db)
        }
        try older.close()
        let database = try LibraryDatabase(path: path)
        #expect(try database.allBooks().map(\.id) == [first.id, try #require(database.books(matching: "Emma").first).id])
        #expect(throws: DatabaseError.self) {
            try database.save(BookEntity(title: "curtain", author: curtain.author, datePublished: Date()))
        }
    }
}

import Foundation
import GRDB
import IntentKit
import SpotlightKit
import Synchronization

/// Keeps the `library` search index in step with the `book` table: the Spotlight delegate's
/// "two lines" (name the table, start indexing), plus how a row becomes a book's item.
///
/// The index lives in `$SHORTCUTS_HOME/indexes/library.sqlite`, apart from the books, so
/// deleting it never touches them. Every change to a book, from any process, is recorded by
/// the store's history triggers and indexed at the next search (``prepareForSearch()``).
public final class LibrarySpotlightDelegate: SpotlightDelegate, @unchecked Sendable {
    /// The delegate of the library in the current `$SHORTCUTS_HOME`, created once per process.
    ///
    /// ```swift
    /// let delegate = try LibrarySpotlightDelegate.shared()
    /// try await delegate.prepareForSearch()
    /// ```
    ///
    /// - Throws: GRDB's error when the library or its index cannot be opened.
    public static func shared() throws -> LibrarySpotlightDelegate {
        let database = try LibraryDatabase.shared()
        return try delegates.withLock { delegates in
            if let existing = delegates[ObjectIdentifier(database)] { return existing }
            let delegate = try LibrarySpotlightDelegate(
                database: database, indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: LibraryApp.searchIndexName))
            delegates[ObjectIdentifier(database)] = delegate
            return delegate
        }
    }

    private static let delegates = Mutex<[ObjectIdentifier: LibrarySpotlightDelegate]>([:])

    /// Creates the delegate of a library database, writing its index to `indexDatabase`.
    ///
    /// - Parameters:
    ///   - database: The library.
    ///   - indexDatabase: Where the index lives.
    /// - Throws: GRDB's error when the history tables cannot be created.
    public init(database: LibraryDatabase, indexDatabase: any DatabaseWriter) throws {
        try super.init(
            forStoreWith: database.writer,
            entities: [SpotlightEntity(table: "book", indexedColumns: ["title", "author"], displayNameColumn: "title")],
            indexDatabase: indexDatabase)
    }

    public override func indexName() -> String? { LibraryApp.searchIndexName }

    public override func domainIdentifier() -> String { BookEntity.entityTypeIdentifier }

    /// A book's item: the book's own attribute set, associated with the book.
    public override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        let book = BookRecord(row: object.row).entity
        var attributes = book.attributeSet
        attributes.associateAppEntity(book)
        return attributes
    }
}

extension BookEntity: IndexedEntity {}

import Foundation
import GRDB
import SpotlightKit
import Synchronization

/// The Tags app's Spotlight delegate, as in the talk: photos and tags are indexed, a photo's
/// tags are its keywords, and linking, unlinking or renaming a tag re-indexes its photos.
///
/// ```swift
/// let delegate = try TagsSpotlightDelegate.shared()
/// try delegate.startIndexing()
/// ```
public final class TagsSpotlightDelegate: SpotlightDelegate, @unchecked Sendable {
    /// The delegate of the store in the current `$SHORTCUTS_HOME`, created once per process.
    ///
    /// - Throws: GRDB's error when the store or its index cannot be opened.
    public static func shared() throws -> TagsSpotlightDelegate {
        let database = try TagsDatabase.shared()
        return try delegates.withLock { delegates in
            if let existing = delegates[ObjectIdentifier(database)] { return existing }
            let delegate = try TagsSpotlightDelegate(
                database: database, indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: TagsApp.searchIndexName))
            delegates[ObjectIdentifier(database)] = delegate
            return delegate
        }
    }

    private static let delegates = Mutex<[ObjectIdentifier: TagsSpotlightDelegate]>([:])

    /// Creates the delegate of a Tags store, writing its index to `indexDatabase` (the store itself when `nil`).
    ///
    /// - Parameters:
    ///   - database: The store.
    ///   - indexDatabase: Where the index lives.
    /// - Throws: GRDB's error when the history tables cannot be created.
    public init(database: TagsDatabase, indexDatabase: (any DatabaseWriter)? = nil) throws {
        try super.init(
            forStoreWith: database.writer,
            entities: [
                SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"], contentType: .image),
                SpotlightEntity(table: "tag", indexedColumns: ["name"], contentType: .text)
            ],
            relationships: [
                .foreignKey(table: "photoTag", column: "photoId", parent: "photo"),
                .joinTable(table: "tag", joinTable: "photoTag", joinColumn: "tagId", parentColumn: "photoId", parent: "photo")
            ],
            indexDatabase: indexDatabase)
    }

    public override func domainIdentifier() -> String { "com.example.apple-samplecode.tags" }

    public override func indexName() -> String? { TagsApp.searchIndexName }

    /// Photos: an image with the photo's name, thumbnail and tags as keywords; tags: text with
    /// the tag's name. Each item is associated with its entity.
    public override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        switch object.table {
        case "photo":
            guard let photo = try TagsDatabase.photo(id: object.rowID, in: db) else { return nil }
            var attributes = photo.attributeSet
            attributes.thumbnailData = object.row["thumbnail"]
            attributes.associateAppEntity(photo)
            return attributes
        case "tag":
            let tag = TagEntity(id: Int(object.rowID), name: object.row["name"])
            var attributes = tag.attributeSet
            attributes.associateAppEntity(tag)
            return attributes
        default:
            return nil
        }
    }
}

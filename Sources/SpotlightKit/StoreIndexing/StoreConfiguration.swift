import Foundation
import GRDB

/// A table of the app's store whose rows become searchable items.
///
/// ```swift
/// let photos = SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"],
///                              displayNameColumn: "userSpecifiedName", contentType: .image)
/// ```
public struct SpotlightEntity: Sendable, Hashable {
    /// The table name.
    public var table: String
    /// The columns whose text goes into the item's `textContent`.
    public var indexedColumns: [String]
    /// The column shown as the item's display name.
    public var displayNameColumn: String?
    /// The content type of the items.
    public var contentType: ContentType

    /// Describes a table to index.
    ///
    /// ```swift
    /// let tags = SpotlightEntity(table: "tag", indexedColumns: ["name"], displayNameColumn: "name")
    /// ```
    ///
    /// - Parameters:
    ///   - table: The table name; it must be a rowid table.
    ///   - indexedColumns: Columns indexed as text content.
    ///   - displayNameColumn: The column used as display name.
    ///   - contentType: The content type of the items.
    public init(table: String, indexedColumns: [String], displayNameColumn: String? = nil, contentType: ContentType = .text) {
        self.table = table
        self.indexedColumns = indexedColumns
        self.displayNameColumn = displayNameColumn
        self.contentType = contentType
    }
}

/// Makes changes to one table count as changes to rows of an indexed table, so
/// items built from relationships (a photo's tags) stay current.
///
/// ```swift
/// // Linking or unlinking a tag changes the photo.
/// let links = SpotlightRelationship.foreignKey(table: "photoTag", column: "photoId", parent: "photo")
/// // Renaming a tag changes every photo linked to it.
/// let renames = SpotlightRelationship.joinTable(table: "tag", joinTable: "photoTag",
///                                               joinColumn: "tagId", parentColumn: "photoId", parent: "photo")
/// ```
public struct SpotlightRelationship: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case foreignKey(column: String)
        case joinTable(joinTable: String, joinColumn: String, parentColumn: String)
    }

    /// The table whose changes are observed.
    public let table: String
    /// The indexed table whose rows are marked as changed.
    public let parent: String
    let kind: Kind

    /// Rows of `table` point at a parent row through `column`.
    ///
    /// ```swift
    /// let links = SpotlightRelationship.foreignKey(table: "photoTag", column: "photoId", parent: "photo")
    /// ```
    ///
    /// - Parameters:
    ///   - table: The child table.
    ///   - column: The column holding the parent's rowid.
    ///   - parent: The indexed parent table.
    /// - Returns: The relationship.
    public static func foreignKey(table: String, column: String, parent: String) -> SpotlightRelationship {
        SpotlightRelationship(table: table, parent: parent, kind: .foreignKey(column: column))
    }

    /// Rows of `table` relate to parent rows through a join table.
    ///
    /// ```swift
    /// let renames = SpotlightRelationship.joinTable(table: "tag", joinTable: "photoTag",
    ///                                               joinColumn: "tagId", parentColumn: "photoId", parent: "photo")
    /// ```
    ///
    /// - Parameters:
    ///   - table: The related table (its rowid is referenced by `joinColumn`).
    ///   - joinTable: The table linking both.
    ///   - joinColumn: The join-table column holding the related row's rowid.
    ///   - parentColumn: The join-table column holding the parent's rowid.
    ///   - parent: The indexed parent table.
    /// - Returns: The relationship.
    public static func joinTable(
        table: String, joinTable: String, joinColumn: String, parentColumn: String,
        parent: String
    ) -> SpotlightRelationship {
        SpotlightRelationship(
            table: table, parent: parent,
            kind: .joinTable(joinTable: joinTable, joinColumn: joinColumn, parentColumn: parentColumn))
    }
}

/// A row of the store handed to ``SpotlightDelegate/attributeSet(for:in:)``.
public struct StoreObject {
    /// The table of the row.
    public let table: String
    /// The rowid of the row.
    public let rowID: Int64
    /// The row's columns.
    public let row: Row
    /// The identifier of the searchable item made from this row.
    public let uniqueIdentifier: String
}

/// Identifies a store row from a searchable item's identifier.
///
/// ```swift
/// if let objectID = StoreObjectID(uniqueIdentifier: item.uniqueIdentifier) {
///     let photo = try Photo.fetchOne(db, key: objectID.rowID)
/// }
/// ```
public struct StoreObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The store the row lives in.
    public var storeIdentifier: String
    /// The table of the row.
    public var table: String
    /// The rowid of the row.
    public var rowID: Int64

    /// Creates an identifier.
    ///
    /// ```swift
    /// let id = StoreObjectID(storeIdentifier: store, table: "photo", rowID: 7)
    /// ```
    ///
    /// - Parameters:
    ///   - storeIdentifier: The store's identifier.
    ///   - table: The table.
    ///   - rowID: The rowid.
    public init(storeIdentifier: String, table: String, rowID: Int64) {
        self.storeIdentifier = storeIdentifier
        self.table = table
        self.rowID = rowID
    }

    /// Parses an identifier of the form `x-store://STORE/TABLE/ROWID`.
    ///
    /// ```swift
    /// let id = StoreObjectID(uniqueIdentifier: "x-store://6F1C…/photo/7")
    /// ```
    ///
    /// - Parameters:
    ///   - uniqueIdentifier: A searchable item's identifier.
    public init?(uniqueIdentifier: String) {
        let prefix = "x-store://"
        guard uniqueIdentifier.hasPrefix(prefix) else { return nil }
        let parts = uniqueIdentifier.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let rowID = Int64(parts.last!) else { return nil }
        storeIdentifier = String(parts[0])
        table = parts[1..<(parts.count - 1)].joined(separator: "/")
        self.rowID = rowID
    }

    /// The searchable item's identifier for this row.
    public var uniqueIdentifier: String { "x-store://\(storeIdentifier)/\(table)/\(rowID)" }

    public var description: String { uniqueIdentifier }

    static func prefix(storeIdentifier: String) -> String { "x-store://\(storeIdentifier)/" }
}

/// Reported after the index has caught up with a store's history.
public struct IndexUpdate: Sendable, Hashable {
    /// The identifier of the store that was indexed.
    public var storeIdentifier: String
    /// The last history entry now reflected in the index.
    public var historyToken: Int64
}

import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import Synchronization

/// The Tags app's SQLite store: photos, tags, and the links between them.
///
/// It lives in `$SHORTCUTS_HOME/tags.sqlite`, created with its tables on first use; its
/// search index lives apart, in `$SHORTCUTS_HOME/indexes/tags.sqlite` (``TagsSpotlightDelegate``).
public final class TagsDatabase: Sendable {
    /// The database connection: a WAL-mode pool for a file, a queue in memory.
    public let writer: any DatabaseWriter

    /// The store in the current `$SHORTCUTS_HOME`, opened once per path.
    ///
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public static func shared() throws -> TagsDatabase {
        let path = try ShortcutsHome.file(named: "tags.sqlite").path
        return try openDatabases.withLock { open in
            if let database = open[path] { return database }
            let database = try TagsDatabase(path: path)
            open[path] = database
            return database
        }
    }

    private static let openDatabases = Mutex<[String: TagsDatabase]>([:])

    /// Opens (and creates or migrates) a store file; `:memory:` for a private one.
    ///
    /// The file is opened through `SQLiteStorage`: WAL, a 5-second busy timeout, immediate
    /// write transactions, migrations that two processes may run at once.
    ///
    /// - Parameters:
    ///   - path: The file.
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public init(path: String) throws {
        writer = try SQLiteDatabase.open(path: path, migrator: Self.migrator)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: photos and tags") { db in
            try db.execute(
                sql: """
                    CREATE TABLE photo (id INTEGER PRIMARY KEY, userSpecifiedName TEXT NOT NULL, thumbnail BLOB);
                    CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
                    CREATE TABLE photoTag (
                        photoId INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
                        tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                        PRIMARY KEY (photoId, tagId)
                    );
                    CREATE INDEX photoTag_tag ON photoTag(tagId);
                    """)
        }
        return migrator
    }

    // MARK: Writing

    /// Adds a photo with its tags (tags are created when new).
    ///
    /// - Parameters:
    ///   - name: The photo's name.
    ///   - tags: Its tags.
    ///   - thumbnail: A small image.
    /// - Returns: The photo.
    /// - Throws: GRDB's error.
    @discardableResult
    public func addPhoto(named name: String, tags: [String], thumbnail: Data? = nil) throws -> PhotoEntity {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO photo (userSpecifiedName, thumbnail) VALUES (?, ?)", arguments: [name, thumbnail])
            let photoID = db.lastInsertedRowID
            try Self.link(photoID: photoID, to: tags, in: db)
            return try Self.photo(id: photoID, in: db)!
        }
    }

    /// Adds tags to a photo.
    ///
    /// - Parameters:
    ///   - photoID: The photo.
    ///   - tags: The tags to add.
    /// - Returns: The photo, or `nil` when it does not exist.
    /// - Throws: GRDB's error.
    public func tag(photoID: Int, with tags: [String]) throws -> PhotoEntity? {
        try writer.write { db in
            guard try Self.photo(id: Int64(photoID), in: db) != nil else { return nil }
            try Self.link(photoID: Int64(photoID), to: tags, in: db)
            return try Self.photo(id: Int64(photoID), in: db)
        }
    }

    private static func link(photoID: Int64, to tags: [String], in db: Database) throws {
        for name in tags.map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            try db.execute(sql: "INSERT OR IGNORE INTO tag (name) VALUES (?)", arguments: [name])
            let tagID = try Int64.fetchOne(db, sql: "SELECT id FROM tag WHERE name = ?", arguments: [name])!
            try db.execute(sql: "INSERT OR IGNORE INTO photoTag (photoId, tagId) VALUES (?, ?)", arguments: [photoID, tagID])
        }
    }

    // MARK: Reading

    /// Every photo, in the order they were added.
    public func allPhotos() throws -> [PhotoEntity] {
        try writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM photo ORDER BY id").compactMap { try Self.photo(id: $0, in: db) }
        }
    }

    /// The photos with these identifiers, in that order.
    public func photos(ids: [Int]) throws -> [PhotoEntity] {
        try writer.read { db in try ids.compactMap { try Self.photo(id: Int64($0), in: db) } }
    }

    /// Every tag, by name.
    public func allTags() throws -> [TagEntity] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM tag ORDER BY name").map { TagEntity(id: $0["id"], name: $0["name"]) }
        }
    }

    /// A photo with its tags, read in a transaction of the store.
    static func photo(id: Int64, in db: Database) throws -> PhotoEntity? {
        guard let name = try String.fetchOne(db, sql: "SELECT userSpecifiedName FROM photo WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let tags = try String.fetchAll(
            db,
            sql: """
                SELECT tag.name FROM tag JOIN photoTag ON photoTag.tagId = tag.id
                WHERE photoTag.photoId = ? ORDER BY tag.name
                """, arguments: [id])
        return PhotoEntity(id: Int(id), name: name, tags: tags)
    }
}

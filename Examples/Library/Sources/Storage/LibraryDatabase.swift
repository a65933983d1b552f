import Foundation
import GRDB
import IntentKit
import SQLiteStorage

/// The library's SQLite database: books, orders and the screens the app opened.
///
/// It lives in `$SHORTCUTS_HOME/library.sqlite`, created with its tables on first use.
/// Text comparisons use `titleKey` and `authorKey`, the title and author folded (no case, no
/// diacritics) in Swift exactly as IntentKit's in-memory comparisons fold them, so a `find`
/// pushed down to SQLite and a `filter` run in memory agree, and equality uses an index.
public final class LibraryDatabase: Sendable {
    /// The database connection: a WAL-mode pool for a file, a queue in memory.
    public let writer: any DatabaseWriter

    private static let openDatabases = OpenDatabases()

    /// The database in the current `$SHORTCUTS_HOME`, opened once per path.
    ///
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public static func shared() throws -> LibraryDatabase {
        let url = try ShortcutsHome.file(named: "library.sqlite")
        return try openDatabases.database(at: url.path)
    }

    /// The databases opened so far, by path.
    private final class OpenDatabases: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [String: LibraryDatabase] = [:]

        func database(at path: String) throws -> LibraryDatabase {
            try lock.withLock {
                if let open = byPath[path] { return open }
                let database = try LibraryDatabase(path: path)
                byPath[path] = database
                return database
            }
        }
    }

    /// Opens (and creates or migrates) a database file; `:memory:` for a private one.
    ///
    /// The file is opened through `SQLiteStorage`: WAL, a 5-second busy timeout, immediate
    /// write transactions, migrations that two processes may run at once.
    ///
    /// - Parameter path: The file.
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public init(path: String) throws {
        writer = try SQLiteDatabase.open(path: path, migrator: Self.migrator) { db in
            db.add(
                function: DatabaseFunction("fold", argumentCount: 1, pure: true) { values in
                    guard let text = String.fromDatabaseValue(values[0]) else { return nil }
                    return ValueComparison.fold(text)
                })
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: books, orders, navigation") { db in
            try db.create(table: "book") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull()
                table.column("author", .text).notNull()
                table.column("datePublished", .double).notNull()
                table.column("dateRead", .double)
                table.column("shelf", .text).notNull()
                table.column("recommendedBy", .text)
            }
            try db.create(index: "book_author", on: "book", columns: ["author", "datePublished"])
            try db.create(index: "book_datePublished", on: "book", columns: ["datePublished"])
            try db.create(table: "bookOrder") { table in
                table.primaryKey("id", .text)
                table.column("bookTitle", .text).notNull()
                table.column("count", .integer).notNull()
                table.column("orderedAt", .double).notNull()
            }
            try db.create(table: "navigation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("screen", .text).notNull()
                table.column("detail", .text)
                table.column("openedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v2: folded title and author keys") { db in
            try db.alter(table: "book") { table in
                table.add(column: "titleKey", .text).notNull().defaults(to: "")
                table.add(column: "authorKey", .text).notNull().defaults(to: "")
            }
            try db.execute(sql: "UPDATE book SET titleKey = fold(title), authorKey = fold(author)")
            try db.drop(index: "book_author")
            try db.create(index: "book_authorKey", on: "book", columns: ["authorKey", "datePublished"])
            try db.create(index: "book_titleKey", on: "book", columns: ["titleKey"])
        }
        migrator.registerMigration("v3: one book per catalog entry") { db in
            // Concurrent adds of one title could store it twice: keep the first of each.
            try db.execute(
                sql: """
                    DELETE FROM book WHERE rowid NOT IN (SELECT min(rowid) FROM book GROUP BY titleKey, authorKey)
                    """)
            try db.create(index: "book_catalogEntry", on: "book", columns: ["titleKey", "authorKey"], options: .unique)
        }
        return migrator
    }

    // MARK: Books

    /// Adds a catalog entry's book, or finds the book already added for it, then files it on a
    /// shelf, in one transaction: concurrent adds of one entry store one book, and each returns it.
    ///
    /// ```swift
    /// let book = try database.addBook(entry, shelf: .currentlyReading, recommendedBy: "Ada")
    /// ```
    ///
    /// - Parameters:
    ///   - entry: The catalog entry.
    ///   - shelf: The shelf to put it on.
    ///   - recommendedBy: Who recommended it; `nil` keeps what was recorded.
    /// - Returns: The book, with its shelf.
    /// - Throws: GRDB's error when the write fails.
    public func addBook(_ entry: BookCatalog.Entry, shelf: Shelf, recommendedBy: String?) throws -> BookEntity {
        try writer.write { db in
            let existing = try BookRecord.fetchOne(
                db, sql: "SELECT * FROM book WHERE titleKey = ? AND authorKey = ?",
                arguments: [ValueComparison.fold(entry.title), ValueComparison.fold(entry.author)])
            var book = existing?.entity ?? BookEntity(title: entry.title, author: entry.author, datePublished: entry.publicationDate)
            book.shelf = shelf
            if let recommendedBy { book.recommendedBy = recommendedBy }
            try BookRecord(book).save(db)
            return book
        }
    }

    /// Adds or replaces a book.
    ///
    /// - Throws: GRDB's error; a constraint error when another book has the same title and author.
    public func save(_ book: BookEntity) throws {
        try writer.write { db in try BookRecord(book).save(db) }
    }

    /// Deletes a book; returns whether it existed.
    @discardableResult
    public func delete(_ id: UUID) throws -> Bool {
        try writer.write { db in try BookRecord.deleteOne(db, key: id.uuidString) }
    }

    /// The books with these identifiers.
    public func books(ids: [UUID]) throws -> [BookEntity] {
        try writer.read { db in
            try BookRecord.fetchAll(db, keys: ids.map(\.uuidString)).map(\.entity)
        }
    }

    /// Every book, by title.
    public func allBooks() throws -> [BookEntity] {
        try writer.read { db in try BookRecord.order(Column("title")).fetchAll(db).map(\.entity) }
    }

    /// Books whose title or author contains the text (ignoring case and diacritics).
    public func books(matching text: String) throws -> [BookEntity] {
        try writer.read { db in
            try BookRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM book WHERE instr(titleKey, ?) > 0 OR instr(authorKey, ?) > 0
                    ORDER BY title
                    """, arguments: [ValueComparison.fold(text), ValueComparison.fold(text)]
            ).map(\.entity)
        }
    }

    /// Books matching SQL conditions (with bound arguments), sorted and limited: the target
    /// of ``BookQuery``'s property queries.
    public func books(
        where conditions: [BookCondition], matchAll: Bool, orderBy: [(column: String, ascending: Bool)],
        limit: Int?
    ) throws -> [BookEntity] {
        var sql = "SELECT * FROM book"
        var arguments = StatementArguments()
        if !conditions.isEmpty {
            sql += " WHERE " + conditions.map { "(\($0.sql))" }.joined(separator: matchAll ? " AND " : " OR ")
            for condition in conditions { arguments += StatementArguments(condition.arguments) }
        }
        let allowed: Set<String> = ["title", "author", "datePublished", "dateRead", "shelf"]
        let order = orderBy.filter { allowed.contains($0.column) }
            .map { "\($0.column) \($0.ascending ? "ASC" : "DESC")" }
        // Insertion order when no sort is asked for, so results are stable.
        sql += " ORDER BY " + (order.isEmpty ? ["rowid ASC"] : order).joined(separator: ", ")
        if let limit {
            sql += " LIMIT ?"
            arguments += [max(limit, 0)]
        }
        // Cached: a workflow repeats the same few queries with other values.
        return try writer.read { db in
            try BookRecord.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(\.entity)
        }
    }

    // MARK: Orders

    /// Stores an order.
    public func save(_ order: OrderEntity) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO bookOrder (id, bookTitle, count, orderedAt) VALUES (?, ?, ?, ?)",
                arguments: [order.id.uuidString, order.bookTitle, order.count, order.orderedAt.timeIntervalSince1970])
        }
    }

    /// Every order, oldest first.
    public func orders() throws -> [OrderEntity] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM bookOrder ORDER BY orderedAt").map { row in
                OrderEntity(
                    id: UUID(uuidString: row["id"]) ?? UUID(), bookTitle: row["bookTitle"], count: row["count"],
                    orderedAt: Date(timeIntervalSince1970: row["orderedAt"]))
            }
        }
    }

    // MARK: Navigation

    /// Records that the app showed a screen.
    public func recordNavigation(screen: String, detail: String?) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO navigation (screen, detail, openedAt) VALUES (?, ?, ?)",
                arguments: [screen, detail, Date().timeIntervalSince1970])
        }
    }

    /// The screens shown, oldest first.
    public func navigationHistory() throws -> [(screen: String, detail: String?)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT screen, detail FROM navigation ORDER BY id").map { ($0["screen"], $0["detail"]) }
        }
    }
}

/// A condition on books in SQL, with its bound arguments: the comparator mapping type of
/// ``BookQuery``. Text never becomes part of the SQL itself.
public struct BookCondition: Sendable {
    /// The SQL expression, with `?` for each argument.
    public var sql: String
    /// The arguments.
    public var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable]) {
        self.sql = sql
        self.arguments = arguments.map(\.databaseValue)
    }
}

/// A row of the `book` table.
struct BookRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"

    var id: String
    var title: String
    var author: String
    var datePublished: Double
    var dateRead: Double?
    var shelf: String
    var recommendedBy: String?
    /// The title and author without case and diacritics, for indexed comparisons.
    var titleKey: String
    var authorKey: String

    /// Reads a row directly (faster than decoding through `Codable`).
    init(row: Row) {
        id = row["id"]
        title = row["title"]
        author = row["author"]
        datePublished = row["datePublished"]
        dateRead = row["dateRead"]
        shelf = row["shelf"]
        recommendedBy = row["recommendedBy"]
        titleKey = row["titleKey"]
        authorKey = row["authorKey"]
    }

    init(_ book: BookEntity) {
        id = book.id.uuidString
        title = book.title
        author = book.author
        datePublished = book.datePublished.timeIntervalSince1970
        dateRead = book.dateRead?.timeIntervalSince1970
        shelf = book.shelf.rawValue
        recommendedBy = book.recommendedBy
        titleKey = ValueComparison.fold(book.title)
        authorKey = ValueComparison.fold(book.author)
    }

    var entity: BookEntity {
        BookEntity(
            id: UUID(uuidString: id) ?? UUID(), title: title, author: author,
            datePublished: Date(timeIntervalSince1970: datePublished),
            dateRead: dateRead.map(Date.init(timeIntervalSince1970:)),
            shelf: Shelf(rawValue: shelf) ?? .wantToRead, recommendedBy: recommendedBy)
    }
}

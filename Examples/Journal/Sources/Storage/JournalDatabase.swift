import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import Synchronization

/// The Journal's SQLite store: diary entries, each stamped with the revision of its last
/// change, so the search index can catch up with exactly what changed (``JournalIndexer``).
///
/// It lives in `$SHORTCUTS_HOME/journal.sqlite`, created on first use with a small sample
/// diary in English and Japanese.
public final class JournalDatabase: Sendable {
    /// The database connection: a WAL-mode pool for a file, a queue in memory.
    public let writer: any DatabaseWriter

    /// The store in the current `$SHORTCUTS_HOME`, opened once per path.
    ///
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public static func shared() throws -> JournalDatabase {
        let path = try ShortcutsHome.file(named: "journal.sqlite").path
        return try openDatabases.withLock { open in
            if let database = open[path] { return database }
            let database = try JournalDatabase(path: path)
            open[path] = database
            return database
        }
    }

    private static let openDatabases = Mutex<[String: JournalDatabase]>([:])

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
        migrator.registerMigration("v1: entries") { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        text TEXT NOT NULL,
                        keywords TEXT NOT NULL,
                        date REAL NOT NULL,
                        lastOpenedAt REAL,
                        revision INTEGER NOT NULL
                    );
                    CREATE INDEX entry_revision ON entry(revision);
                    CREATE TABLE journalSetting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    INSERT INTO journalSetting (key, value) VALUES ('revision', '0');
                    """)
        }
        migrator.registerMigration("v2: sample diary") { db in
            for entry in SampleDiary.entries { try save(entry, in: db) }
        }
        return migrator
    }

    // MARK: Writing

    /// Adds or replaces an entry, stamping it with a new revision.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    /// - Throws: GRDB's error.
    public func save(_ entry: EntryEntity) throws {
        try writer.write { db in try Self.save(entry, in: db) }
    }

    private static func save(_ entry: EntryEntity, in db: Database) throws {
        try db.execute(sql: "UPDATE journalSetting SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'")
        let revision = try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM journalSetting WHERE key = 'revision'") ?? 0
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO entry (id, title, text, keywords, date, lastOpenedAt, revision) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.id.uuidString, entry.title, entry.text, entry.keywords.joined(separator: "\n"),
                entry.date.timeIntervalSince1970, entry.lastOpened?.timeIntervalSince1970, revision
            ])
    }

    /// Reads or writes a setting of the journal.
    ///
    /// - Parameters:
    ///   - key: The setting's name.
    /// - Returns: Its value, or `nil`.
    /// - Throws: GRDB's error.
    public func setting(_ key: String) throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = ?", arguments: [key]) }
    }

    /// Writes a setting of the journal; `nil` removes it.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The setting's name.
    /// - Throws: GRDB's error.
    public func setSetting(_ value: String?, for key: String) throws {
        try writer.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO journalSetting (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM journalSetting WHERE key = ?", arguments: [key])
            }
        }
    }

    // MARK: Reading

    /// Every entry, newest first.
    public func allEntries() throws -> [EntryEntity] {
        try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM entry ORDER BY date DESC, title").map(Self.entry) }
    }

    /// The entries with these identifiers, in that order.
    public func entries(ids: [UUID]) throws -> [EntryEntity] {
        try writer.read { db in
            try ids.compactMap { id in
                try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id.uuidString]).map(Self.entry)
            }
        }
    }

    /// The journal's current revision and the entries changed after a revision, read together.
    ///
    /// - Parameters:
    ///   - revision: The revision the caller has seen.
    /// - Returns: The current revision and the entries with a later one.
    /// - Throws: GRDB's error.
    public func changes(after revision: Int) throws -> (revision: Int, entries: [EntryEntity]) {
        try writer.read { db in
            let current = try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM journalSetting WHERE key = 'revision'") ?? 0
            let entries = try Row.fetchAll(db, sql: "SELECT * FROM entry WHERE revision > ? ORDER BY revision", arguments: [revision])
                .map(Self.entry)
            return (current, entries)
        }
    }

    private static func entry(_ row: Row) -> EntryEntity {
        let keywords: String = row["keywords"]
        return EntryEntity(
            id: UUID(uuidString: row["id"]) ?? UUID(), title: row["title"], text: row["text"],
            keywords: keywords.split(separator: "\n").map(String.init),
            date: Date(timeIntervalSince1970: row["date"]),
            lastOpened: (row["lastOpenedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

/// The entries a new journal starts with.
enum SampleDiary {
    static let entries: [EntryEntity] = [
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000001", "Windsurfing in Carmel",
            "Wind from the northwest all afternoon at Carmel River State Beach. Three hours of windsurfing; the water was cold but the swell was kind.",
            ["windsurfing", "Carmel", "beach"], "2025-06-14"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000002", "Tide pools at Point Lobos",
            "Low tide at Point Lobos, just south of Carmel: anemones, hermit crabs and a sea otter asleep in the kelp.",
            ["Point Lobos", "tide pools", "Carmel"], "2025-06-15"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000003", "Sourdough, third try",
            "The starter finally doubled overnight. The crumb is still tight; next time a longer bulk ferment.",
            ["baking", "sourdough"], "2025-07-02"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000004", "江ノ島でウィンドサーフィン",
            "江ノ島の海で初めてのウィンドサーフィン。風が強く、何度も落ちたが楽しかった。",
            ["ウィンドサーフィン", "江ノ島", "海"], "2025-08-09"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000005", "Reading on the porch",
            "Finished Where the Crawdads Sing on the porch while it rained. The marsh chapters stay with me.",
            ["reading", "books"], "2025-09-03"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000006", "Morning run by the river",
            "Six kilometres along the river before work; herons on the sandbank.",
            ["running", "river"], "2025-10-01"),
        entry(
            "5A0C1D52-7B0E-4F4E-9C1B-000000000007", "嵐山の紅葉",
            "朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は人が少なく静か。",
            ["京都", "嵐山", "紅葉"], "2025-11-22")
    ]

    private static func entry(_ id: String, _ title: String, _ text: String, _ keywords: [String], _ day: String) -> EntryEntity {
        EntryEntity(id: UUID(uuidString: id)!, title: title, text: text, keywords: keywords, date: DateText.parse(day)!)
    }
}

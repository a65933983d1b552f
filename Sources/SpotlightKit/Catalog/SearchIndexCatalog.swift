import Clockwork
import Foundation
import GRDB
import IntentKit
import Synchronization

/// Every search index there is: those the installed apps keep (``AppSearchIndex``) and the
/// index files in a folder (`$SHORTCUTS_HOME/indexes` by default, one `NAME.sqlite` per index).
///
/// The command line and workflows search through it: it opens indexes, brings the apps'
/// indexes up to date first, searches several at once, and returns found items with the
/// entities they stand for.
///
/// ```swift
/// let catalog = SearchIndexCatalog(intents: IntentCatalog(apps: [LibraryApp.app]))
/// print(catalog.indexNames)   // ["library"]
/// let response = try await catalog.search(SearchRequest(text: "owens"))
/// for hit in response.hits { print(hit.indexName, hit.item.attributeSet.title ?? "") }
/// ```
public struct SearchIndexCatalog: Sendable {
    /// The installed apps.
    public let intents: IntentCatalog
    /// The folder of index files.
    public let directory: URL
    /// The clock that the indexes opened from files date their items by, and that waits for
    /// another process's lock are measured by.
    public let clock: any EngineClock

    /// Creates the catalog of the installed apps' indexes and the index files in a folder.
    ///
    /// ```swift
    /// let catalog = SearchIndexCatalog(intents: catalog, directory: URL(fileURLWithPath: "/tmp/indexes"))
    /// ```
    ///
    /// - Parameters:
    ///   - intents: The installed apps.
    ///   - directory: The folder of index files; ``defaultDirectory(environment:)`` when `nil`.
    ///   - clock: The clock the indexes it opens read the time by.
    public init(intents: IntentCatalog, directory: URL? = nil, clock: any EngineClock = .system) {
        self.intents = intents
        self.directory = directory ?? Self.defaultDirectory()
        self.clock = clock
    }

    /// `$SHORTCUTS_HOME/indexes` (see `ShortcutsHome`); not created.
    ///
    /// - Parameters:
    ///   - environment: The environment to read (the process's by default).
    /// - Returns: The folder.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ShortcutsHome.directory(environment: environment).appendingPathComponent("indexes", isDirectory: true)
    }

    /// Opens (creating it and its folder if needed) the database file of a named index, in WAL
    /// mode; the same connection pool every time within a process. A connection waits up to
    /// 5 seconds for another process's write instead of failing with "database is locked".
    ///
    /// ```swift
    /// let indexDatabase = try SearchIndexCatalog.openIndexDatabase(named: "library")
    /// let delegate = try LibrarySpotlightDelegate(store: library.writer, indexDatabase: indexDatabase)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name; the file is `NAME.sqlite`.
    ///   - directory: The folder; ``defaultDirectory(environment:)`` when `nil`.
    /// - Returns: The database.
    /// - Throws: A file-system error, or an error naming the file and saying in words why it cannot be opened.
    public static func openIndexDatabase(named name: String, in directory: URL? = nil) throws -> DatabasePool {
        let folder = directory ?? defaultDirectory()
        let path = folder.appendingPathComponent(name + ".sqlite").standardizedFileURL.path
        return try openDatabases.withLock { open in
            if let pool = open[path] { return pool }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let pool = try IndexDatabase.open(path: path)
            open[path] = pool
            return pool
        }
    }

    private static let openDatabases = Mutex<[String: DatabasePool]>([:])

    // MARK: Names

    /// The names of the index files in ``directory``, sorted.
    public var indexFileNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".sqlite") }.map { String($0.dropLast(".sqlite".count)) }.sorted()
    }

    /// Every index name: the apps' indexes and the index files, sorted, without duplicates.
    public var indexNames: [String] {
        Array(Set(intents.searchIndexes.map(\.index.name) + indexFileNames)).sorted()
    }

    /// The app index of this name, with its app.
    ///
    /// - Parameters:
    ///   - name: The index name.
    /// - Returns: The app and its index declaration, or `nil` for an index no app keeps.
    public func appIndex(named name: String) -> (app: IntentApp, index: AppSearchIndex)? {
        intents.searchIndexes.first { $0.index.name == name }
    }

    // MARK: Opening

    /// Opens an index: through its app's maintainer (brought up to date first when
    /// `preparingForSearch`), or from its file.
    ///
    /// ```swift
    /// let library = try await catalog.open("library")
    /// print(try await library.index.itemCount())
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - preparingForSearch: Whether to bring an app's index up to date with the app's data.
    /// - Returns: The opened index.
    /// - Throws: ``SpotlightError/unknownIndex(name:known:)``, or the maintainer's error.
    public func open(_ name: String, preparingForSearch: Bool = true) async throws -> OpenedSearchIndex {
        if let (app, declaration) = appIndex(named: name) {
            // An app's data may be opened without waiting for locks: a lock another process
            // holds for a moment is waited out here, for up to 5 seconds.
            return try await IndexDatabase.retryingWhileBusyAsync(clock: clock) {
                try await IntentPerformer(catalog: intents).prepare(app)
                let maintainer = try await declaration.maintainer()
                if preparingForSearch { try await maintainer.prepareForSearch() }
                return OpenedSearchIndex(
                    name: name, index: maintainer.searchableIndex, app: app, declaration: declaration,
                    maintainer: maintainer)
            }
        }
        guard indexFileNames.contains(name) else {
            throw SpotlightError.unknownIndex(name: name, known: indexNames)
        }
        let database = try Self.openIndexDatabase(named: name, in: directory)
        return OpenedSearchIndex(
            name: name, index: try SearchableIndex(name: name, database: database, clock: clock), app: nil,
            declaration: nil, maintainer: nil)
    }

    /// The state of an index, without bringing it up to date.
    ///
    /// ```swift
    /// let status = try await catalog.status(ofIndexNamed: "library")
    /// print(status.itemCount, status.historyToken ?? 0)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    /// - Returns: The status.
    /// - Throws: ``SpotlightError/unknownIndex(name:known:)``, or a read error.
    public func status(ofIndexNamed name: String) async throws -> SearchIndexStatus {
        try await explainingDatabaseErrors(of: name) { try await readStatus(ofIndexNamed: name) }
    }

    private func readStatus(ofIndexNamed name: String) async throws -> SearchIndexStatus {
        let opened = try await open(name, preparingForSearch: false)
        let index = opened.index
        let clientState = try await index.fetchLastClientState()
        return SearchIndexStatus(
            name: name,
            appName: opened.app?.name,
            path: directory.appendingPathComponent(name + ".sqlite").path,
            itemCount: try await index.itemCount(),
            itemCountsByDomain: try await index.itemCountsByDomain(),
            vocabularySize: try await index.vocabularySize(),
            lastClientState: clientState,
            historyToken: try await opened.maintainer?.currentHistoryToken(),
            pendingChangeCount: try await opened.maintainer?.pendingChangeCount(),
            isIndexingSwitchedOff: try await opened.maintainer?.isIndexingSwitchedOff())
    }
}

/// An index opened by ``SearchIndexCatalog/open(_:preparingForSearch:)``.
public struct OpenedSearchIndex: Sendable {
    /// The index name.
    public var name: String
    /// The index.
    public var index: SearchableIndex
    /// The app that keeps it, if any.
    public var app: IntentApp?
    /// The app's declaration of it, if any.
    public var declaration: AppSearchIndex?
    /// What keeps it up to date, if an app does.
    public var maintainer: (any IndexMaintainer)?
}

/// The state of one index, as `shortcuts index status` shows it.
public struct SearchIndexStatus: Sendable, Hashable {
    /// The index name.
    public var name: String
    /// The app that keeps it, if any.
    public var appName: String?
    /// The index file.
    public var path: String
    /// The unexpired items.
    public var itemCount: Int
    /// The items in each domain (the empty string for items without one).
    public var itemCountsByDomain: [String: Int]
    /// The distinct words of the full-text index.
    public var vocabularySize: Int
    /// The client state stored by the last batch, if any.
    public var lastClientState: Data?
    /// The position in the app's change history the index reflects, when the app has one.
    public var historyToken: Int64?
    /// The changes not indexed yet, when known.
    public var pendingChangeCount: Int?
    /// Whether the app switched indexing off; `nil` for an index no app keeps.
    public var isIndexingSwitchedOff: Bool?

    /// The client state as text when it is printable UTF-8, otherwise its size.
    ///
    /// ```swift
    /// status.lastClientStateDescription   // "revision 12", "<16 bytes>" or nil
    /// ```
    public var lastClientStateDescription: String? {
        guard let data = lastClientState else { return nil }
        if let text = String(data: data, encoding: .utf8), !text.isEmpty,
            text.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) })
        {
            return text
        }
        return "<\(data.count) bytes>"
    }
}

import Clockwork
import Foundation
import GRDB
import Synchronization

/// Rebuilds index content on request, as when the index was lost or is out of date.
///
/// ```swift
/// let reindexer: any SearchableIndexDelegate = spotlightDelegate
/// try await reindexer.reindexAll()
/// ```
public protocol SearchableIndexDelegate: AnyObject, Sendable {
    /// Re-creates every item the delegate is responsible for.
    ///
    /// ```swift
    /// try await delegate.reindexAll()
    /// ```
    ///
    /// - Throws: Any error raised while reading the source or writing the index.
    func reindexAll() async throws

    /// Re-creates the items with these identifiers, deleting those whose source is gone.
    ///
    /// ```swift
    /// try await delegate.reindex(identifiers: [item.uniqueIdentifier])
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The unique identifiers of the items.
    /// - Throws: Any error raised while reading the source or writing the index.
    func reindex(identifiers: [String]) async throws
}

/// Keeps a searchable index in step with tables of an app's GRDB store.
///
/// Triggers record every change of the configured tables in a history table
/// of the store; the delegate consumes that history in the background, writing
/// items and the history token in one transaction, and reports each step
/// through ``indexUpdates()``.
///
/// Subclass to customize: override ``attributeSet(for:in:)``,
/// ``domainIdentifier()`` or ``indexName()``.
///
/// ```swift
/// let delegate = try SpotlightDelegate(forStoreWith: dbPool, entities: [
///     SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"], displayNameColumn: "userSpecifiedName", contentType: .image),
/// ])
/// try delegate.startIndexing()
/// ```
open class SpotlightDelegate: SearchableIndexDelegate, @unchecked Sendable {
    /// The app's store.
    public let store: any DatabaseWriter
    /// The database holding the index (the store itself unless another one was given).
    public let indexDatabase: any DatabaseWriter
    /// The tables indexed.
    public let entities: [SpotlightEntity]
    /// The relationships that mark indexed rows as changed.
    public let relationships: [SpotlightRelationship]
    /// The store's identifier, kept in the store.
    public let storeIdentifier: String
    /// How many history entries are indexed per transaction.
    public let batchSize: Int
    /// How often the history is checked for changes made by other connections or processes.
    public let pollInterval: Duration
    /// The clock the poll interval and the waits of ``waitUntilIndexed(timeout:)`` are
    /// measured by, and the index dates its items by.
    public let clock: any EngineClock

    let sameDatabase: Bool

    struct State {
        var index: SearchableIndex?
        var loop: Task<Void, Never>?
        var observation: AnyDatabaseCancellable?
        var subscribers: [UUID: AsyncStream<IndexUpdate>.Continuation] = [:]
        var lastError: (any Error)?
    }
    let state = Mutex(State())
    /// Signalled when the store's history changes, or a caller wants it looked at now.
    let wakeUp = ChangeSignal()
    /// Signalled after each turn of the background indexing, and when indexing stops.
    let progress = ChangeSignal()

    /// Creates a delegate for a store; call ``startIndexing()`` to begin.
    ///
    /// ```swift
    /// let delegate = try SpotlightDelegate(forStoreWith: dbQueue, entities: [tags], relationships: [])
    /// ```
    ///
    /// - Parameters:
    ///   - store: The app's database.
    ///   - entities: The tables to index.
    ///   - relationships: Tables whose changes mark indexed rows as changed.
    ///   - indexDatabase: Where the index lives; the store itself when `nil`.
    ///   - batchSize: History entries per transaction.
    ///   - pollInterval: How often to look for changes made outside `store`.
    ///   - clock: The clock that measures the poll interval and timeouts, and that the index
    ///     dates its items by; the real one by default.
    /// - Throws: ``SpotlightError/invalidStoreConfiguration(store:reason:)`` or a GRDB `DatabaseError`.
    public init(
        forStoreWith store: any DatabaseWriter,
        entities: [SpotlightEntity],
        relationships: [SpotlightRelationship] = [],
        indexDatabase: (any DatabaseWriter)? = nil,
        batchSize: Int = 256,
        pollInterval: Duration = .milliseconds(500),
        clock: any EngineClock = .system
    ) throws {
        self.store = store
        self.indexDatabase = indexDatabase ?? store
        self.sameDatabase = indexDatabase.map { ($0 as AnyObject) === (store as AnyObject) } ?? true
        self.entities = entities
        self.relationships = relationships
        self.batchSize = max(1, batchSize)
        self.pollInterval = pollInterval
        self.clock = clock
        try IndexDatabase.migrate(HistoryTracking.migrator, store, clock: clock)
        if let existing = try store.read({ db in try HistoryTracking.existingStoreIdentifier(in: db) }) {
            self.storeIdentifier = existing
        } else {
            self.storeIdentifier = try IndexDatabase.retryingWhileBusy(clock: clock) {
                try store.write { db in try HistoryTracking.storeIdentifier(in: db) }
            }
        }
        let index = try SearchableIndex(name: indexName() ?? "default", database: self.indexDatabase, clock: clock)
        state.withLock { $0.index = index }
    }

    deinit {
        state.withLock { state in
            state.loop?.cancel()
            state.observation?.cancel()
            for continuation in state.subscribers.values { continuation.finish() }
        }
    }

    // MARK: Customization points

    /// The attributes of the item made from a store row; `nil` leaves the row out of the index.
    ///
    /// The default uses the entity's configuration: its display-name column and
    /// its indexed columns as text content. Override to add keywords from
    /// related rows, thumbnails, or anything else; `db` is the store connection.
    ///
    /// ```swift
    /// override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
    ///     guard object.table == "photo" else { return try super.attributeSet(for: object, in: db) }
    ///     var set = SearchableItemAttributeSet(contentType: .image)
    ///     set.displayName = object.row["userSpecifiedName"]
    ///     set.keywords = try String.fetchAll(db, sql: "SELECT tag.name FROM tag JOIN photoTag ON photoTag.tagId = tag.id WHERE photoTag.photoId = ?", arguments: [object.rowID])
    ///     return set
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - object: The row.
    ///   - db: The store connection, inside the indexing transaction.
    /// - Returns: The attributes, or `nil` to leave the row out.
    /// - Throws: Errors from reading the store; indexing retries later.
    open func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        guard let entity = entities.first(where: { $0.table == object.table }) else { return nil }
        var set = SearchableItemAttributeSet(contentType: entity.contentType)
        if let column = entity.displayNameColumn {
            set.displayName = Self.text(object.row[column] as DatabaseValue?)
        }
        let texts = entity.indexedColumns.compactMap { Self.text(object.row[$0] as DatabaseValue?) }
        if !texts.isEmpty { set.textContent = texts.joined(separator: "\n") }
        return set
    }

    /// The domain of every item; the store identifier by default.
    ///
    /// ```swift
    /// override func domainIdentifier() -> String { "com.example.tags" }
    /// ```
    ///
    /// - Returns: The domain identifier.
    open func domainIdentifier() -> String {
        storeIdentifier
    }

    /// The name of the index; `nil` (the default) means the index named `"default"`.
    ///
    /// ```swift
    /// override func indexName() -> String? { "tags-index" }
    /// ```
    ///
    /// - Returns: The index name.
    open func indexName() -> String? {
        nil
    }

    static func text(_ value: DatabaseValue?) -> String? {
        guard let value else { return nil }
        switch value.storage {
        case .null, .blob: return nil
        case .string(let text): return text.isEmpty ? nil : text
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        }
    }

    // MARK: Public surface

    /// The index the delegate writes, for queries.
    public var searchableIndex: SearchableIndex {
        state.withLock { $0.index! }
    }

    /// Whether the background indexing is running.
    public var isIndexingEnabled: Bool {
        state.withLock { $0.loop != nil }
    }

    /// The last error the background indexing met, if any; it retries after each poll interval.
    public var lastError: (any Error)? {
        state.withLock { $0.lastError }
    }

    /// A new stream of index updates; it ends when the delegate is released.
    ///
    /// ```swift
    /// for await update in delegate.indexUpdates() {
    ///     print(update.storeIdentifier, update.historyToken)
    /// }
    /// ```
    ///
    /// - Returns: The stream.
    public func indexUpdates() -> AsyncStream<IndexUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: IndexUpdate.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Writes to the store, waiting up to 5 seconds while another connection holds its lock.
    func writeStore<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await IndexDatabase.retryingWhileBusyAsync(clock: clock) { try await store.write(updates) }
    }

    func publish(_ update: IndexUpdate) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for continuation in subscribers { continuation.yield(update) }
        progress.signal()
    }

    /// Installs the history triggers and starts indexing in the background.
    ///
    /// The first start (and the first start after ``deleteSpotlightIndex()``)
    /// indexes every existing row; later starts resume from the stored history token.
    ///
    /// ```swift
    /// try delegate.startIndexing()
    /// ```
    ///
    /// - Throws: ``SpotlightError/invalidStoreConfiguration(store:reason:)`` when a table or column is missing.
    public func startIndexing() throws {
        if isIndexingEnabled { return }
        let entities = self.entities
        let relationships = self.relationships
        let store = self.storeIdentifier
        // Usually the triggers are in place: checking them is a read, so searching needs no write access.
        let installed = try self.store.read { db in
            try HistoryTracking.validate(entities: entities, relationships: relationships, store: store, in: db)
            return try HistoryTracking.triggersAreInstalled(entities: entities, relationships: relationships, in: db)
        }
        if !installed {
            try IndexDatabase.retryingWhileBusy(clock: clock) {
                try self.store.write { db in
                    try HistoryTracking.installTriggers(entities: entities, relationships: relationships, in: db)
                }
            }
        }
        let observation = DatabaseRegionObservation(tracking: Table("spotlightHistory"))
        let cancellable = observation.start(
            in: self.store, onError: { _ in },
            onChange: { [weak self] _ in
                self?.wakeUp.signal()
            })
        let loop = Task.detached { [weak self] in
            while !Task.isCancelled {
                guard let delegate = self else { return }
                await delegate.runOnce()
            }
        }
        state.withLock { state in
            state.observation = cancellable
            state.loop = loop
        }
    }

    /// Stops background indexing; changes keep being recorded and are indexed after the next start.
    ///
    /// ```swift
    /// delegate.stopIndexing()
    /// ```
    public func stopIndexing() {
        let (loop, observation) = state.withLock { state -> (Task<Void, Never>?, AnyDatabaseCancellable?) in
            defer {
                state.loop = nil
                state.observation = nil
            }
            return (state.loop, state.observation)
        }
        loop?.cancel()
        observation?.cancel()
        progress.signal()
    }

    /// Stops indexing and deletes this store's items and history token from the index; the store's data stays.
    ///
    /// The history triggers are removed too; ``startIndexing()`` rebuilds the index.
    ///
    /// ```swift
    /// delegate.stopIndexing()
    /// try await delegate.deleteSpotlightIndex()
    /// ```
    ///
    /// - Throws: A GRDB `DatabaseError` from the index or the store.
    public func deleteSpotlightIndex() async throws {
        stopIndexing()
        let storage = searchableIndex.storage
        let prefix = StoreObjectID.prefix(storeIdentifier: storeIdentifier)
        let storeIdentifier = self.storeIdentifier
        try await indexDatabase.write { db in
            try storage.delete(identifierPrefix: prefix, in: db)
            try db.execute(
                sql: "DELETE FROM spotlightIndexerState WHERE storeIdentifier = ? AND indexName = ?",
                arguments: [storeIdentifier, storage.name])
        }
        try await writeStore { db in
            try HistoryTracking.removeTriggers(in: db)
            try db.execute(sql: "DELETE FROM spotlightHistory")
        }
    }

    /// The history token the index reflects, or `nil` before the first indexing.
    ///
    /// ```swift
    /// let token = try await delegate.currentHistoryToken()
    /// ```
    ///
    /// - Returns: The token.
    /// - Throws: A GRDB `DatabaseError`.
    public func currentHistoryToken() async throws -> Int64? {
        let storeIdentifier = self.storeIdentifier
        let name = searchableIndex.name
        return try await indexDatabase.read { db in
            try Self.token(storeIdentifier: storeIdentifier, indexName: name, in: db)
        }
    }

    /// Waits until every change recorded so far is in the index.
    ///
    /// The index is looked at again after each turn of the background indexing, not on a
    /// timer.
    ///
    /// ```swift
    /// try dbQueue.write { db in try photo.insert(db) }
    /// try await delegate.waitUntilIndexed()
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long to wait, by the delegate's ``clock``.
    /// - Throws: ``SpotlightError/indexingNotRunning(store:)`` when indexing is stopped or the
    ///   wait times out, the indexing's last error when it times out after one, or
    ///   `CancellationError`.
    public func waitUntilIndexed(timeout: Duration = .seconds(30)) async throws {
        let target = try await store.read { db in try HistoryTracking.latestChangeID(in: db) }
        let deadline = clock.now().adding(timeout)
        var seen = progress.generation
        wakeUp.signal()
        while clock.now() < deadline {
            try Task.checkCancellation()
            guard isIndexingEnabled else { throw SpotlightError.indexingNotRunning(store: storeIdentifier) }
            if let token = try await currentHistoryToken(), token >= target { return }
            _ = await progress.wait(past: seen, until: deadline, clock: clock)
            seen = progress.generation
        }
        try Task.checkCancellation()
        if let error = lastError { throw error }
        throw SpotlightError.indexingNotRunning(store: storeIdentifier)
    }

    // MARK: SearchableIndexDelegate

    /// Deletes this store's items and indexes every row again, in one transaction of the index.
    ///
    /// ```swift
    /// try await delegate.reindexAll()
    /// ```
    ///
    /// - Throws: A GRDB `DatabaseError`, or an error from ``attributeSet(for:in:)``.
    public func reindexAll() async throws {
        try await indexEverything()
    }

    /// Indexes the rows behind these item identifiers again, deleting items whose rows are gone.
    ///
    /// ```swift
    /// try await delegate.reindex(identifiers: ["x-store://…/photo/7"])
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: Item identifiers made by this delegate; others are ignored.
    /// - Throws: A GRDB `DatabaseError`, or an error from ``attributeSet(for:in:)``.
    public func reindex(identifiers: [String]) async throws {
        let objects =
            identifiers
            .compactMap(StoreObjectID.init(uniqueIdentifier:))
            .filter { $0.storeIdentifier == storeIdentifier }
            .map { ($0.table, $0.rowID) }
        try await reindex(objects: objects)
    }
}

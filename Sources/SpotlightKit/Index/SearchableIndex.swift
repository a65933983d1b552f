import Clockwork
import Foundation
import GRDB

/// A named, private, on-device index of searchable items stored in SQLite.
///
/// Several named indexes can share one database. Writes are transactional; a
/// batch (``beginBatch()`` … ``endBatch(expectedClientState:newClientState:)``)
/// is written in one transaction together with its client state.
///
/// ```swift
/// let index = try SearchableIndex(name: "notes", databasePath: "/tmp/search.sqlite")
/// var attributes = SearchableItemAttributeSet(contentType: .text)
/// attributes.title = "Crawdads"
/// try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "n1", attributeSet: attributes)])
/// ```
public actor SearchableIndex {
    /// The name of the index.
    public nonisolated let name: String
    /// The database that holds the index.
    public nonisolated let database: any DatabaseWriter
    /// The clock that dates indexed items and engagement, decides expiry, and is "now"
    /// (`$time.now`) in queries that are given no ``QueryEnvironment``.
    public nonisolated var clock: any EngineClock { storage.clock }
    nonisolated let storage: IndexStorage
    nonisolated let semantic = SemanticSearchState()
    private var pendingBatch: [IndexOperation]?

    /// Opens or creates a named index in a database file, in WAL mode.
    ///
    /// ```swift
    /// let index = try SearchableIndex(name: "photos", databasePath: "/var/lib/app/search.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name; indexes with different names never see each other's items.
    ///   - databasePath: The SQLite file; created when missing.
    ///   - clock: The clock the index reads the time by; the real one by default.
    /// - Throws: An error naming the file when it cannot be opened, or a GRDB `DatabaseError` when it cannot be migrated.
    public init(name: String = "default", databasePath: String, clock: any EngineClock = .system) throws {
        try self.init(name: name, database: IndexDatabase.open(path: databasePath), clock: clock)
    }

    /// Opens or creates a named index in an existing GRDB database.
    ///
    /// Every item it indexes is dated by `clock`, which also decides expiry and is "now" in
    /// its queries; a test gives a manual clock:
    ///
    /// ```swift
    /// let queue = try DatabaseQueue()
    /// let index = try SearchableIndex(name: "default", database: queue)
    /// let dated = try SearchableIndex(name: "dated", database: queue, clock: testClock)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - database: A `DatabaseQueue` or `DatabasePool`; the index tables are added by migrations prefixed `SpotlightKit.`.
    ///   - clock: The clock the index reads the time by; the real one by default.
    /// - Throws: A GRDB `DatabaseError` when the schema cannot be migrated.
    public init(name: String = "default", database: any DatabaseWriter, clock: any EngineClock = .system) throws {
        self.name = name
        self.database = database
        self.storage = try IndexStorage.open(name: name, writer: database, clock: clock)
    }

    // MARK: Indexing

    /// Adds or replaces items; items marked ``SearchableItem/isUpdate`` only update existing items.
    ///
    /// Inside a batch the items are held until the batch ends.
    ///
    /// ```swift
    /// try await index.indexSearchableItems([item])
    /// ```
    ///
    /// - Parameters:
    ///   - items: The items to index.
    /// - Throws: A GRDB `DatabaseError` when the write fails; nothing is written then.
    public func indexSearchableItems(_ items: [SearchableItem]) async throws {
        try await perform(.index(items))
    }

    /// Deletes items by unique identifier.
    ///
    /// ```swift
    /// try await index.deleteSearchableItems(withIdentifiers: ["n1", "n2"])
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The unique identifiers to delete; unknown ones are ignored.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func deleteSearchableItems(withIdentifiers identifiers: [String]) async throws {
        try await perform(.deleteIdentifiers(identifiers))
    }

    /// Deletes every item in the domains and their subdomains.
    ///
    /// Deleting `"notes"` also deletes `"notes.fieldwork"`, but not `"notesArchive"`.
    ///
    /// ```swift
    /// try await index.deleteSearchableItems(withDomainIdentifiers: ["notes"])
    /// ```
    ///
    /// - Parameters:
    ///   - domainIdentifiers: The domains to delete.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String]) async throws {
        try await perform(.deleteDomains(domainIdentifiers))
    }

    /// Deletes every item of this index.
    ///
    /// ```swift
    /// try await index.deleteAllSearchableItems()
    /// ```
    ///
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func deleteAllSearchableItems() async throws {
        try await perform(.deleteAll)
    }

    private func perform(_ operation: IndexOperation) async throws {
        if pendingBatch != nil {
            pendingBatch!.append(operation)
            return
        }
        let storage = self.storage
        try await database.write { db in
            try storage.apply([operation], in: db)
        }
        scheduleSemanticIndexing()
    }

    // MARK: Batches

    /// Starts a batch: later writes are held and applied in one transaction by `endBatch`.
    ///
    /// ```swift
    /// try await index.beginBatch()
    /// try await index.indexSearchableItems(items)
    /// try await index.endBatch(expectedClientState: nil, newClientState: Data("v1".utf8))
    /// ```
    ///
    /// - Throws: ``SpotlightError/batchAlreadyOpen(index:)`` when a batch is open.
    public func beginBatch() throws {
        guard pendingBatch == nil else { throw SpotlightError.batchAlreadyOpen(index: name) }
        pendingBatch = []
    }

    /// Ends the batch: checks the stored client state, then writes the batch and the new state in one transaction.
    ///
    /// When the stored state differs from `expectedClientState` nothing is
    /// written and the batch is discarded. A crash before the commit leaves the
    /// old state and none of the batch.
    ///
    /// ```swift
    /// let state = try await index.fetchLastClientState()
    /// try await index.beginBatch()
    /// try await index.indexSearchableItems(items)
    /// try await index.endBatch(expectedClientState: state, newClientState: Data("v2".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - expectedClientState: The state the index must hold; `nil` means it must hold none.
    ///   - newClientState: The state stored with the batch.
    /// - Throws: ``SpotlightError/clientStateMismatch(index:expected:actual:)``, ``SpotlightError/noOpenBatch(index:)``, or a GRDB `DatabaseError`.
    public func endBatch(expectedClientState: Data?, newClientState: Data) async throws {
        try await finishBatch(check: true, expected: expectedClientState, newState: newClientState)
    }

    /// Ends the batch and stores a new client state without checking the old one.
    ///
    /// ```swift
    /// try await index.endBatch(clientState: Data("v3".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - clientState: The state stored with the batch.
    /// - Throws: ``SpotlightError/noOpenBatch(index:)`` or a GRDB `DatabaseError`.
    public func endBatch(clientState: Data) async throws {
        try await finishBatch(check: false, expected: nil, newState: clientState)
    }

    private func finishBatch(check: Bool, expected: Data?, newState: Data) async throws {
        guard let operations = pendingBatch else { throw SpotlightError.noOpenBatch(index: name) }
        pendingBatch = nil
        let storage = self.storage
        let name = self.name
        try await database.write { db in
            if check {
                let actual = try storage.clientState(in: db)
                guard actual == expected else {
                    throw SpotlightError.clientStateMismatch(index: name, expected: expected, actual: actual)
                }
            }
            try storage.apply(operations, in: db)
            try storage.setClientState(newState, in: db)
        }
        scheduleSemanticIndexing()
    }

    /// Whether a batch is open.
    public var isBatchOpen: Bool { pendingBatch != nil }

    /// The client state stored by the last successful batch.
    ///
    /// ```swift
    /// if try await index.fetchLastClientState() == nil { /* first launch: index everything */ }
    /// ```
    ///
    /// - Returns: The state, or `nil` when no batch stored one.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func fetchLastClientState() async throws -> Data? {
        let storage = self.storage
        return try await database.read { db in try storage.clientState(in: db) }
    }

    // MARK: Maintenance and reading

    /// Deletes expired items of every index in the database.
    ///
    /// Expired items are never returned by queries; they are also purged at every write.
    ///
    /// ```swift
    /// let purged = try await index.purgeExpiredItems()
    /// ```
    ///
    /// - Parameters:
    ///   - now: The current instant; the index's ``clock``'s time when `nil`.
    /// - Returns: The number of items deleted.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    @discardableResult
    public func purgeExpiredItems(now: Date? = nil) async throws -> Int {
        let storage = self.storage
        let now = now ?? storage.clock.now()
        return try await database.write { db in try storage.purgeExpired(in: db, now: now) }
    }

    /// Fetches stored items by identifier, with every attribute.
    ///
    /// ```swift
    /// let items = try await index.fetchItems(withIdentifiers: ["n1"])
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The unique identifiers.
    /// - Returns: The items found, in the order of `identifiers`; expired items are left out.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func fetchItems(withIdentifiers identifiers: [String]) async throws -> [SearchableItem] {
        let storage = self.storage
        let now = storage.clock.now()
        return try await database.read { db in try storage.fetchItems(identifiers: identifiers, in: db, now: now) }
    }

    /// The number of unexpired items in this index.
    ///
    /// ```swift
    /// let count = try await index.itemCount()
    /// ```
    ///
    /// - Returns: The count.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func itemCount() async throws -> Int {
        let storage = self.storage
        let now = storage.clock.now()
        return try await database.read { db in try storage.count(in: db, now: now) }
    }
}

import Foundation
import GRDB
import IntentKit
import SpotlightKit
import Synchronization

/// Keeps the `journal` search index in step with the diary the way the semantic-search talk
/// does: entries are indexed in batches, and each batch stores the journal revision it reflects
/// as the index's client state. Before a search, the entries changed since that revision are
/// indexed in one batch that only commits if the client state is still the one read.
///
/// ```swift
/// let indexer = try JournalIndexer.shared()
/// try await indexer.prepareForSearch()
/// let entries = try await indexer.searchableIndex.searchAppEntities("carmel", ofType: EntryEntity.self)
/// ```
public final class JournalIndexer: IndexMaintainer {
    /// The journal.
    public let database: JournalDatabase
    /// The index.
    public let searchableIndex: SearchableIndex
    private let indexDatabase: any DatabaseWriter

    static let switchedOffKey = "indexingSwitchedOff"

    /// The indexer of the journal in the current `$SHORTCUTS_HOME`, created once per process.
    ///
    /// - Throws: GRDB's error when the journal or its index cannot be opened.
    public static func shared() throws -> JournalIndexer {
        let database = try JournalDatabase.shared()
        return try indexers.withLock { indexers in
            if let existing = indexers[ObjectIdentifier(database)] { return existing }
            let indexer = try JournalIndexer(
                database: database, indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: JournalApp.searchIndexName))
            indexers[ObjectIdentifier(database)] = indexer
            return indexer
        }
    }

    private static let indexers = Mutex<[ObjectIdentifier: JournalIndexer]>([:])

    /// Creates the indexer of a journal, with its index in `indexDatabase`.
    ///
    /// - Parameters:
    ///   - database: The journal.
    ///   - indexDatabase: Where the index lives.
    /// - Throws: GRDB's error when the index cannot be created.
    public init(database: JournalDatabase, indexDatabase: any DatabaseWriter) throws {
        self.database = database
        self.indexDatabase = indexDatabase
        self.searchableIndex = try SearchableIndex(name: JournalApp.searchIndexName, database: indexDatabase)
    }

    /// The client state of a batch that reflects a revision of the journal: `revision N`.
    static func clientState(revision: Int) -> Data { Data("revision \(revision)".utf8) }

    /// The revision a client state reflects; 0 when there is none.
    static func revision(in state: Data?) -> Int {
        guard let state, let text = String(data: state, encoding: .utf8), text.hasPrefix("revision ") else { return 0 }
        return Int(text.dropFirst("revision ".count)) ?? 0
    }

    /// A fresh handle on the index for one batch, so batches from concurrent calls never mix;
    /// the client state check keeps them consistent.
    private func batchIndex() throws -> SearchableIndex {
        try SearchableIndex(name: JournalApp.searchIndexName, database: indexDatabase)
    }

    // MARK: IndexMaintainer

    /// Indexes the entries changed since the revision in the client state, in one batch.
    public func prepareForSearch() async throws {
        guard try await !isIndexingSwitchedOff() else { return }
        for _ in 0..<3 {
            let index = try batchIndex()
            let state = try await index.fetchLastClientState()
            let changes = try database.changes(after: Self.revision(in: state))
            guard state == nil || changes.revision != Self.revision(in: state) else { return }
            try await index.beginBatch()
            try await index.indexAppEntities(changes.entries)
            do {
                try await index.endBatch(expectedClientState: state, newClientState: Self.clientState(revision: changes.revision))
                return
            } catch SpotlightError.clientStateMismatch {
                continue  // Another process indexed meanwhile: look again from its state.
            }
        }
    }

    public func isIndexingSwitchedOff() async throws -> Bool {
        try database.setting(Self.switchedOffKey) != nil
    }

    /// Deletes every item and records that indexing is off; the entries stay.
    public func switchIndexingOff() async throws {
        try database.setSetting("true", for: Self.switchedOffKey)
        let index = try batchIndex()
        try await index.beginBatch()
        try await index.deleteAllSearchableItems()
        try await index.endBatch(clientState: Self.clientState(revision: 0))
    }

    /// Switches indexing on and replaces every item in one batch.
    public func rebuildIndex(progress: @escaping @Sendable (IndexingProgress) -> Void) async throws {
        try database.setSetting(nil, for: Self.switchedOffKey)
        try await replaceEverything(progress: progress)
    }

    private func replaceEverything(progress: @Sendable (IndexingProgress) -> Void) async throws {
        let changes = try database.changes(after: 0)
        let index = try batchIndex()
        progress(IndexingProgress(completedCount: 0, totalCount: changes.entries.count))
        try await index.beginBatch()
        try await index.deleteAllSearchableItems()
        for start in stride(from: 0, to: changes.entries.count, by: 64) {
            let chunk = Array(changes.entries[start..<min(start + 64, changes.entries.count)])
            try await index.indexAppEntities(chunk)
            progress(IndexingProgress(completedCount: start + chunk.count, totalCount: changes.entries.count))
        }
        try await index.endBatch(clientState: Self.clientState(revision: changes.revision))
    }

    // MARK: SearchableIndexDelegate

    /// Replaces every item, unless indexing is switched off.
    public func reindexAll() async throws {
        guard try await !isIndexingSwitchedOff() else { return }
        try await replaceEverything(progress: { _ in })
    }

    /// Indexes the entries behind these item identifiers again, deleting items whose entry is gone.
    public func reindex(identifiers: [String]) async throws {
        let ids = identifiers.compactMap(AppEntityReference.init(uniqueIdentifier:))
            .filter { $0.typeIdentifier == EntryEntity.entityTypeIdentifier }
            .compactMap { UUID(uuidString: $0.identifier) }
        let entries = try database.entries(ids: ids)
        let missing = Set(ids).subtracting(entries.map(\.id))
        try await searchableIndex.indexAppEntities(entries)
        try await searchableIndex.deleteAppEntities(identifiedBy: Array(missing), ofType: EntryEntity.self)
    }
}

import Clockwork
import Foundation
import GRDB
import TextEmbedding

/// How far semantic indexing of an index has come.
///
/// ```swift
/// try await index.embedPendingItems { progress in
///     print("\(progress.embeddedCount) of \(progress.totalCount)")
/// }
/// ```
public struct SemanticIndexingProgress: Sendable, Hashable {
    /// Items whose text has a vector of the attached model (items without text count as done).
    public var embeddedCount: Int
    /// Unexpired items of the index.
    public var totalCount: Int

    /// `embeddedCount / totalCount`, or 1 for an empty index.
    public var fractionCompleted: Double {
        totalCount > 0 ? Double(embeddedCount) / Double(totalCount) : 1
    }
}

/// Semantic search on an index: on or off (stored in the index), the embedder, and the vectors.
///
/// With semantic search on and an embedder attached, every item's text is embedded into a
/// vector stored in the index's database, and user queries rank by meaning as well as by words
/// (see ``RetrievalMode``). Embedding runs in batches outside any write transaction; each
/// batch is written in one short transaction, so indexing can stop at any point and resume.
///
/// ```swift
/// let embedder = try TransformerEmbedder(directory: modelFolder, identifier: "all-MiniLM-L6-v2@1110a243", similarityFloor: 0.25)
/// try await index.setSemanticSearch(enabled: true, embedder: embedder)
/// try await index.embedPendingItems { print($0.fractionCompleted) }
/// ```
extension SearchableIndex {
    /// Whether semantic search is on for this index, as stored in its database.
    public var isSemanticSearchEnabled: Bool {
        let storage = self.storage
        return (try? database.read { db in try Self.isSemanticSearchEnabled(indexId: storage.indexId, in: db) }) ?? false
    }

    static func isSemanticSearchEnabled(indexId: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [indexId]) ?? false
    }

    /// Turns semantic search on or off for this index; the setting is stored in the index.
    ///
    /// Turning it on with an embedder attaches it (see ``attach(embedder:)``), which starts
    /// embedding the items in the background, and records its model as the index's (turning it on
    /// again with another model embeds the items again with that one). Turning it off deletes the
    /// index's vectors.
    ///
    /// ```swift
    /// try await index.setSemanticSearch(enabled: true, embedder: embedder)
    /// try await index.setSemanticSearch(enabled: false, embedder: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - enabled: Whether items are embedded and queries use their vectors.
    ///   - embedder: The model to embed with; `nil` keeps the one attached, if any.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func setSemanticSearch(enabled: Bool, embedder: (any TextEmbedder)?) async throws {
        let indexId = storage.indexId
        try await database.write { db in
            if enabled {
                try db.execute(
                    sql: """
                        INSERT INTO spotlightSemanticIndex (indexId, model) VALUES (?, ?)
                        ON CONFLICT (indexId) DO UPDATE SET model = COALESCE(excluded.model, model)
                        """,
                    arguments: [indexId, embedder?.identifier])
            } else {
                try db.execute(sql: "DELETE FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [indexId])
                try db.execute(sql: "DELETE FROM spotlightItemEmbedding WHERE indexId = ?", arguments: [indexId])
            }
        }
        semantic.forgetVectors()
        if let embedder { attach(embedder: embedder) }
    }

    /// Attaches the embedder used for queries and for keeping the vectors in step with the items.
    ///
    /// When semantic search is on, items without a vector of this model (new, changed, or
    /// embedded by another model) are embedded in the background from now on, after every write.
    ///
    /// ```swift
    /// if let embedder = try ModelStore.standard().loadEmbedder() { await index.attach(embedder: embedder) }
    /// ```
    ///
    /// - Parameters:
    ///   - embedder: The model.
    public func attach(embedder: any TextEmbedder) {
        semantic.embedder = embedder
        scheduleSemanticIndexing()
    }

    /// Embeds the items that have no vector of the attached model yet, in batches.
    ///
    /// Each batch is read, embedded without holding any lock, then written in one short
    /// transaction, skipping items deleted or changed meanwhile (they stay pending). Calling it
    /// again after an interruption continues where it stopped.
    ///
    /// ```swift
    /// try await index.embedPendingItems(batchSize: 32) { progress in
    ///     print(String(format: "%.0f %%", progress.fractionCompleted * 100))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - batchSize: Items embedded together (a packed batch); at least 1.
    ///   - progress: Called after each batch, and once before the first.
    /// - Throws: ``SpotlightError/semanticSearchUnavailable(index:reason:)`` when semantic search
    ///   is off or no embedder is attached, the embedder's error, or a GRDB `DatabaseError`.
    public nonisolated func embedPendingItems(
        batchSize: Int = 32, progress: (@Sendable (SemanticIndexingProgress) -> Void)? = nil
    ) async throws {
        guard let embedder = semantic.embedder else {
            throw SpotlightError.semanticSearchUnavailable(
                index: name, reason: "no embedder is attached; install a model or attach one with attach(embedder:)")
        }
        try await SemanticIndexer(storage: storage, embedder: embedder, state: semantic, indexName: name)
            .run(batchSize: max(1, batchSize), progress: progress)
    }

    /// How far semantic indexing has come for the attached embedder's model (or the stored one).
    ///
    /// ```swift
    /// if let progress = try await index.semanticIndexingProgress() { print(progress.embeddedCount) }
    /// ```
    ///
    /// - Returns: The progress, or `nil` when semantic search is off.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func semanticIndexingProgress() async throws -> SemanticIndexingProgress? {
        let storage = self.storage
        let attached = semantic.embedder?.identifier
        let now = storage.clock.now()
        return try await database.read { db in
            guard try Self.isSemanticSearchEnabled(indexId: storage.indexId, in: db) else { return nil }
            let stored = try String.fetchOne(
                db, sql: "SELECT model FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [storage.indexId])
            return try SemanticIndexer.progress(indexId: storage.indexId, model: attached ?? stored ?? "", now: now, in: db)
        }
    }

    /// Waits until background semantic indexing started by writes has finished.
    ///
    /// ```swift
    /// try await index.indexSearchableItems(items)
    /// await index.waitForSemanticIndexing()
    /// ```
    public nonisolated func waitForSemanticIndexing() async {
        await semantic.waitForBackgroundIndexing()
    }

    /// Starts embedding pending items in the background when semantic search is on and an embedder is attached.
    func scheduleSemanticIndexing() {
        guard let embedder = semantic.embedder else { return }
        let storage = self.storage
        let state = semantic
        let name = self.name
        state.startBackgroundIndexing {
            let indexer = SemanticIndexer(storage: storage, embedder: embedder, state: state, indexName: name)
            try? await indexer.run(batchSize: 32, progress: nil, quietlyWhenDisabled: true)
        }
    }
}

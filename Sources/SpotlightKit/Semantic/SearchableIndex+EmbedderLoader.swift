import Foundation
import GRDB
import Synchronization
import TextEmbedding

/// The process-wide way to load an embedder for indexes with semantic search on and none attached.
private enum EmbedderLoader {
    enum State {
        case none
        case unloaded(@Sendable () -> (any TextEmbedder)?)
        case loaded((any TextEmbedder)?)
    }
    static let state = Mutex<State>(.none)

    /// The embedder, loaded on the first call that needs it (at most once per process).
    static func embedder() -> (any TextEmbedder)? {
        state.withLock { state in
            switch state {
            case .none: return nil
            case .loaded(let embedder): return embedder
            case .unloaded(let load):
                let embedder = load()
                state = .loaded(embedder)
                return embedder
            }
        }
    }
}

extension SearchableIndex {
    /// Sets how to load the embedder of indexes that have semantic search on but none attached.
    ///
    /// The loader runs at most once, the first time such an index is searched or prepared, so a
    /// program that never searches one never loads a model. It returns `nil` when no model is
    /// available; those indexes are then searched by words only.
    ///
    /// ```swift
    /// SearchableIndex.loadEmbedders { try? ModelStore.standard().loadEmbedder() }
    /// ```
    ///
    /// - Parameters:
    ///   - load: Loads the embedder, or returns `nil`.
    public static func loadEmbedders(with load: @escaping @Sendable () -> (any TextEmbedder)?) {
        EmbedderLoader.state.withLock { $0 = .unloaded(load) }
    }

    /// The attached embedder; when none is attached and semantic search is on, the one the
    /// process-wide loader gives (attached from then on).
    ///
    /// ```swift
    /// let embedder = try await index.semanticEmbedder()   // nil: search by words only
    /// ```
    ///
    /// - Returns: The embedder, or `nil` when semantic search is off or no model is available.
    /// - Throws: A GRDB `DatabaseError` when the setting cannot be read.
    public nonisolated func semanticEmbedder() async throws -> (any TextEmbedder)? {
        if let attached = semantic.embedder { return attached }
        let storage = self.storage
        let enabled = try await database.read { db in try Self.isSemanticSearchEnabled(indexId: storage.indexId, in: db) }
        guard enabled, let loaded = EmbedderLoader.embedder() else { return nil }
        await attach(embedder: loaded)
        return loaded
    }

    /// Embeds what is pending before a search, so that items written since the last run are
    /// found by meaning too; does nothing when semantic search is off or no model is available.
    ///
    /// Whether anything is pending is known from one row: inserts and text changes are counted
    /// by triggers, and each complete run of embedding records the count it saw.
    ///
    /// ```swift
    /// try await index.prepareSemanticSearch()
    /// ```
    ///
    /// - Throws: The embedder's error or a GRDB `DatabaseError`.
    public nonisolated func prepareSemanticSearch() async throws {
        guard let embedder = try await semanticEmbedder() else { return }
        let storage = self.storage
        let upToDate = try await database.read { db in
            try SemanticIndexer.isUpToDate(indexId: storage.indexId, model: embedder.identifier, in: db)
        }
        if !upToDate { try await embedPendingItems() }
    }
}

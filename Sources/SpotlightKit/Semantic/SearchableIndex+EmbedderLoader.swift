import Foundation
import GRDB
import Synchronization
import TextEmbedding

/// The process-wide way to load the embedders of indexes with semantic search on and none attached.
private enum EmbedderLoader {
    struct State {
        var load: (@Sendable (String?) -> (any TextEmbedder)?)?
        /// The embedders loaded so far (or `nil` when the model could not be had), by the model
        /// the index names.
        var loaded: [String?: (any TextEmbedder)?] = [:]
    }
    static let state = Mutex(State())

    /// The embedder of the model an index names, loaded on the first call that needs it (at most
    /// once per model and process).
    static func embedder(for model: String?) -> (any TextEmbedder)? {
        state.withLock { state in
            if let known = state.loaded[model] { return known }
            guard let load = state.load else { return nil }
            let embedder = load(model)
            state.loaded[model] = .some(embedder)
            return embedder
        }
    }
}

extension SearchableIndex {
    /// Sets how to load the embedder of indexes that have semantic search on but none attached.
    ///
    /// The loader is given the identifier of the model the index's vectors were made with (`nil`
    /// when the index names none) and runs at most once per model, the first time such an index is
    /// searched or prepared, so a program that never searches one never loads a model. It returns
    /// `nil` when the model is not available; those indexes are then searched by words only.
    ///
    /// ```swift
    /// SearchableIndex.loadEmbedders { model in try? ModelStore.standard().loadEmbedder(named: model) }
    /// ```
    ///
    /// - Parameters:
    ///   - load: Loads the embedder of a model, or returns `nil`.
    public static func loadEmbedders(with load: @escaping @Sendable (_ model: String?) -> (any TextEmbedder)?) {
        EmbedderLoader.state.withLock { $0 = EmbedderLoader.State(load: load) }
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
        let setting = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT model FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [storage.indexId])
        }
        guard let setting, let loaded = EmbedderLoader.embedder(for: setting["model"]) else { return nil }
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

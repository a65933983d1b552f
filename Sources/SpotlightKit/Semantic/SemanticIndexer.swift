import Clockwork
import Foundation
import GRDB
import Synchronization
import TextEmbedding

/// Embeds the pending items of one index in batches: read, embed with no lock held, write.
struct SemanticIndexer: Sendable {
    let storage: IndexStorage
    let embedder: any TextEmbedder
    let state: SemanticSearchState
    let indexName: String

    private struct PendingItem {
        var id: Int64
        var text: EmbeddedText
    }

    private static let pendingSQL = """
        SELECT i.id, i.title, i.displayName, i.contentDescription, i.keywords, i.textContent
        FROM spotlightItem i
        LEFT JOIN spotlightItemEmbedding e ON e.itemId = i.id AND e.model = ?
        WHERE i.id > ? AND +i.indexId = ? AND e.itemId IS NULL
          AND (i.expirationDate IS NULL OR i.expirationDate > ?)
        ORDER BY i.id LIMIT ?
        """

    func run(
        batchSize: Int, progress: (@Sendable (SemanticIndexingProgress) -> Void)?, quietlyWhenDisabled: Bool = false
    ) async throws {
        try await state.exclusively {
            try await runAlone(batchSize: batchSize, progress: progress, quietlyWhenDisabled: quietlyWhenDisabled)
        }
    }

    private func runAlone(
        batchSize: Int, progress: (@Sendable (SemanticIndexingProgress) -> Void)?, quietlyWhenDisabled: Bool
    ) async throws {
        let indexId = storage.indexId
        let model = embedder.identifier
        let now = storage.clock.now()
        // Record the model; vectors of another model can never match this one's queries.
        let start: (progress: SemanticIndexingProgress, changes: Int64)? = try await storage.writer.write { db in
            guard try SearchableIndex.isSemanticSearchEnabled(indexId: indexId, in: db) else { return nil }
            try db.execute(
                sql: "UPDATE spotlightSemanticIndex SET model = ? WHERE indexId = ? AND model IS NOT ?",
                arguments: [model, indexId, model])
            try db.execute(
                sql: "DELETE FROM spotlightItemEmbedding WHERE indexId = ? AND model != ?", arguments: [indexId, model])
            let changes =
                try Int64.fetchOne(
                    db, sql: "SELECT changes FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [indexId]) ?? 0
            return (try Self.progress(indexId: indexId, model: model, now: now, in: db), changes)
        }
        guard var current = start?.progress, let changesAtStart = start?.changes else {
            if quietlyWhenDisabled { return }
            throw SpotlightError.semanticSearchUnavailable(
                index: indexName, reason: "semantic search is off; turn it on with setSemanticSearch(enabled: true, embedder:)")
        }
        progress?(current)
        var lastId: Int64 = 0
        while true {
            try Task.checkCancellation()
            let after = lastId
            let batch = try await storage.writer.read { db in
                try Row.fetchAll(
                    db, sql: Self.pendingSQL, arguments: [model, after, indexId, now.timeIntervalSince1970, batchSize]
                ).map { row in
                    PendingItem(
                        id: row[0],
                        text: EmbeddedText(
                            title: row[1], displayName: row[2], contentDescription: row[3], keywords: row[4],
                            textContent: row[5]))
                }
            }
            guard let last = batch.last else { break }
            lastId = last.id
            let texts = batch.filter { !$0.text.isEmpty }
            let vectors = try Self.embedInParallel(texts.map(\.text.text), with: embedder)
            var byId: [Int64: [Float]] = [:]
            for (item, vector) in zip(texts, vectors) { byId[item.id] = vector }
            let vectorsById = byId
            let written = try await storage.writer.write { db in
                try Self.store(batch, vectors: vectorsById, indexId: indexId, model: model, in: db)
            }
            current.embeddedCount = min(current.totalCount, current.embeddedCount + written)
            progress?(current)
        }
        try await storage.writer.write { db in
            try db.execute(
                sql: "UPDATE spotlightSemanticIndex SET embeddedChanges = ?, embeddedModel = ? WHERE indexId = ?",
                arguments: [changesAtStart, model, indexId])
        }
    }

    /// Embeds a batch as two packed halves on two threads (the machines this runs on have at
    /// least two cores, and one forward pass uses one); small batches in one pass.
    static func embedInParallel(_ texts: [String], with embedder: any TextEmbedder) throws -> [[Float]] {
        guard texts.count >= 8, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            return texts.isEmpty ? [] : try embedder.embed(texts, role: .document)
        }
        let middle = texts.count / 2
        let halves = [Array(texts[..<middle]), Array(texts[middle...])]
        let results = Mutex<[Result<[[Float]], any Error>?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let result = Result { try embedder.embed(halves[part], role: .document) }
            results.withLock { $0[part] = result }
        }
        return try results.withLock { $0 }.flatMap { try $0!.get() }
    }

    /// Writes the vectors of items whose text is still the one embedded; returns how many were written.
    private static func store(
        _ batch: [PendingItem], vectors: [Int64: [Float]], indexId: Int64, model: String, in db: Database
    ) throws -> Int {
        guard try SearchableIndex.isSemanticSearchEnabled(indexId: indexId, in: db) else { return 0 }
        let ids = "[" + batch.map { String($0.id) }.joined(separator: ",") + "]"
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, title, displayName, contentDescription, keywords, textContent FROM spotlightItem
                WHERE id IN (SELECT value FROM json_each(?))
                """, arguments: [ids])
        var currentHashes: [Int64: Int64] = [:]
        for row in rows {
            currentHashes[row[0]] =
                EmbeddedText(
                    title: row[1], displayName: row[2], contentDescription: row[3], keywords: row[4], textContent: row[5]
                ).hash
        }
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO spotlightItemEmbedding (itemId, indexId, model, textHash, scale, quantized, exact)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        var written = 0
        for item in batch {
            let hash = item.text.hash
            guard currentHashes[item.id] == hash else { continue }
            if let vector = vectors[item.id] {
                let quantized = QuantizedVector(vector)
                try insert.execute(arguments: [
                    item.id, indexId, model, hash, quantized.scale, quantized.quantizedData, QuantizedVector.exactData(vector)
                ])
            } else {
                // Nothing to embed: an empty vector marks the item as done.
                try insert.execute(arguments: [item.id, indexId, model, hash, 0, Data(), Data()])
            }
            written += 1
        }
        return written
    }

    /// Whether a complete run of the model has seen every insert and text change of the index.
    static func isUpToDate(indexId: Int64, model: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT changes = embeddedChanges AND embeddedModel IS ? FROM spotlightSemanticIndex WHERE indexId = ?
                """, arguments: [model, indexId]) ?? true
    }

    static func progress(indexId: Int64, model: String, now: Date, in db: Database) throws -> SemanticIndexingProgress {
        let total =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM spotlightItem
                    WHERE indexId = ? AND (expirationDate IS NULL OR expirationDate > ?)
                    """, arguments: [indexId, now.timeIntervalSince1970]) ?? 0
        let embedded =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM spotlightItemEmbedding e JOIN spotlightItem i ON i.id = e.itemId
                    WHERE e.indexId = ? AND e.model = ? AND (i.expirationDate IS NULL OR i.expirationDate > ?)
                    """, arguments: [indexId, model, now.timeIntervalSince1970]) ?? 0
        return SemanticIndexingProgress(embeddedCount: embedded, totalCount: total)
    }
}

import Foundation
import GRDB
import Synchronization
import Testing
import TextEmbedding

@testable import SpotlightKit

/// The Journal's entries in short, as the semantic tests index them.
private let journal: [SearchableItem] = [
    textItem("run", title: "Morning run by the river", text: "Five kilometres along the river before work"),
    textItem("surf", title: "Windsurfing in Carmel", text: "Strong wind in the bay all afternoon"),
    textItem("bread", title: "Sourdough, third try", text: "The loaf finally rose"),
    textItem("porch", title: "Reading on the porch", text: "Finished the novel in one sitting"),
    textItem("empty")
]

private func semanticIndex(
    _ embedder: ConceptEmbedder = ConceptEmbedder(), items: [SearchableItem] = journal
) async throws -> SearchableIndex {
    let index = try makeIndex()
    try await index.indexSearchableItems(items)
    try await index.setSemanticSearch(enabled: true, embedder: embedder)
    try await index.embedPendingItems()
    return index
}

private func identifiers(_ text: String, _ retrieval: RetrievalMode = .hybrid, in index: SearchableIndex) async throws -> [String] {
    var context = UserQueryContext()
    context.retrieval = retrieval
    return try await userSearch(text, context: context, in: index).items.map(\.item.uniqueIdentifier)
}

private func vectorCount(_ index: SearchableIndex) async throws -> Int {
    try await index.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightItemEmbedding") ?? 0 }
}

@Suite("Semantic search")
struct SemanticSearchTests {
    @Test("Embedding reports progress up to every item and stores one vector per item")
    func embedsWithProgress() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems(journal)
        try await index.setSemanticSearch(enabled: true, embedder: nil)
        await index.attach(embedder: ConceptEmbedder())
        await index.waitForSemanticIndexing()
        #expect(try await vectorCount(index) == journal.count)

        let fresh = try await semanticIndex(items: [])
        try await fresh.indexSearchableItems((0..<5).map { textItem("n\($0)", title: "note \($0)") })
        try await fresh.setSemanticSearch(enabled: false, embedder: nil)
        try await fresh.setSemanticSearch(enabled: true, embedder: ConceptEmbedder())
        await fresh.waitForSemanticIndexing()
        try await fresh.setSemanticSearch(enabled: false, embedder: nil)
        try await fresh.setSemanticSearch(enabled: true, embedder: nil)
        let seen = Mutex<[SemanticIndexingProgress]>([])
        try await fresh.embedPendingItems(batchSize: 2) { progress in seen.withLock { $0.append(progress) } }
        let reports = seen.withLock { $0 }
        #expect(reports.map(\.embeddedCount) == [0, 2, 4, 5])
        #expect(reports.allSatisfy { $0.totalCount == 5 })
        #expect(reports.last?.fractionCompleted == 1)
    }

    @Test("The setting is stored in the index and survives reopening; turning it off deletes the vectors")
    func settingIsPersisted() async throws {
        let folder = try temporaryDirectory()
        let path = folder.appendingPathComponent("index.sqlite").path
        do {
            let index = try SearchableIndex(name: "journal", databasePath: path)
            #expect(await index.isSemanticSearchEnabled == false)
            try await index.indexSearchableItems(journal)
            try await index.setSemanticSearch(enabled: true, embedder: ConceptEmbedder())
            try await index.embedPendingItems()
        }
        let reopened = try SearchableIndex(name: "journal", databasePath: path)
        #expect(await reopened.isSemanticSearchEnabled)
        let other = try SearchableIndex(name: "other", databasePath: path)
        #expect(await other.isSemanticSearchEnabled == false)
        await reopened.attach(embedder: ConceptEmbedder())
        #expect(try await identifiers("jogging", in: reopened) == ["run"])
        try await reopened.setSemanticSearch(enabled: false, embedder: nil)
        #expect(await reopened.isSemanticSearchEnabled == false)
        #expect(try await vectorCount(reopened) == 0)
        #expect(try await identifiers("jogging", in: reopened) == [])
    }

    @Test("Meaning finds what words miss; lexical retrieval does not")
    func hybridFindsByMeaning() async throws {
        let index = try await semanticIndex()
        #expect(try await identifiers("jogging", .lexical, in: index) == [])
        #expect(try await identifiers("jogging", in: index) == ["run"])
        #expect(try await identifiers("baking bread", in: index).first == "bread")
        #expect(try await identifiers("sailing", .semantic, in: index) == ["surf"])
    }

    @Test("Unrelated queries find nothing: the similarity floor")
    func similarityFloor() async throws {
        let index = try await semanticIndex()
        #expect(try await identifiers("quantum chromodynamics", in: index) == [])
        var strict = ConceptEmbedder()
        strict.similarityFloor = 0.99
        await index.attach(embedder: strict)
        #expect(try await identifiers("jogging", in: index) == [])
    }

    @Test("Explanations show the cosine and each list's rank")
    func explanation() async throws {
        let index = try await semanticIndex()
        let results = try await userSearch("windsurfing", in: index).items
        let first = try #require(results.first)
        #expect(first.item.uniqueIdentifier == "surf")
        let fusion = try #require(first.explanation.fusion)
        #expect(fusion.lexicalRank == 1)
        #expect(fusion.semanticRank == 1)
        #expect(abs(fusion.score - 2.0 / 61) < 1e-12)
        #expect(first.explanation.relevance == 1)
        let cosine = try #require(first.explanation.semantic)
        #expect(cosine > 0.3 && cosine <= 1.0001)
        #expect(first.explanation.description.contains("rrf 0.0328: words #1 bm25"))
        #expect(first.explanation.description.contains("meaning #1 cosine"))

        let semanticOnly = try #require(try await userSearch("jogging", in: index).items.first)
        #expect(semanticOnly.explanation.fusion?.lexicalRank == nil)
        #expect(semanticOnly.explanation.description.contains("words no match"))
    }

    @Test("Filters and the result limit apply to items found by meaning")
    func filtersApply() async throws {
        let index = try await semanticIndex()
        var context = UserQueryContext()
        context.filterQueries = [#"title == "Windsurfing*""#]
        #expect(try await userSearch("jogging", context: context, in: index).items.isEmpty)
        context.filterQueries = []
        context.maxResultCount = 1
        context.retrieval = .semantic
        #expect(try await userSearch("sourdough bread loaf", context: context, in: index).items.map(\.item.uniqueIdentifier) == ["bread"])
    }

    @Test("A result limit of any size, a workflow's 'limit: ${input.n}' included, finds by words and meaning")
    func hugeResultLimit() async throws {
        let index = try await semanticIndex()
        var context = UserQueryContext()
        context.maxResultCount = .max
        context.retrieval = .hybrid
        #expect(try await userSearch("sourdough bread loaf", context: context, in: index).items.map(\.item.uniqueIdentifier).first == "bread")
    }

    @Test("Vectors follow deletes, expiry and text changes; unchanged text is not embedded again")
    func keptInStep() async throws {
        let embedder = ConceptEmbedder()
        let index = try await semanticIndex(embedder)
        let embeddedAtFirst = embedder.log.all.count
        #expect(embeddedAtFirst == journal.count - 1)  // the item without text is not embedded

        try await index.deleteSearchableItems(withIdentifiers: ["bread"])
        #expect(try await vectorCount(index) == journal.count - 1)
        #expect(try await identifiers("sourdough", .semantic, in: index).isEmpty)

        try await index.indexSearchableItems([textItem("run", title: "Morning run by the river", text: "Five kilometres along the river before work")]
        )
        await index.waitForSemanticIndexing()
        #expect(embedder.log.all.count == embeddedAtFirst, "\(embedder.log.all)")

        try await index.indexSearchableItems([textItem("porch", title: "Baking bread on the porch")])
        await index.waitForSemanticIndexing()
        #expect(embedder.log.all.count == embeddedAtFirst + 1)
        #expect(try await identifiers("sourdough", .semantic, in: index) == ["porch"])

        try await index.indexSearchableItems([textItem("old", title: "Jogging shoes", expires: Date(timeIntervalSinceNow: 3600))])
        await index.waitForSemanticIndexing()
        #expect(try await vectorCount(index) == journal.count)
        try await index.purgeExpiredItems(now: Date(timeIntervalSinceNow: 7200))
        #expect(try await vectorCount(index) == journal.count - 1)

        try await index.deleteAllSearchableItems()
        #expect(try await vectorCount(index) == 0)
    }

    @Test("Items written by a store indexer, outside the index actor, are embedded before the next search")
    func storeWritesArePending() async throws {
        let embedder = ConceptEmbedder()
        let index = try await semanticIndex(embedder)
        let embedded = embedder.log.all.count
        try await index.prepareSemanticSearch()
        #expect(embedder.log.all.count == embedded)
        try await index.database.write { db in
            try index.storage.apply([.index([textItem("late", title: "Sourdough starter")])], in: db)
        }
        #expect(
            try await index.semanticIndexingProgress()
                == SemanticIndexingProgress(embeddedCount: journal.count, totalCount: journal.count + 1))
        try await index.prepareSemanticSearch()
        #expect(embedder.log.all == Array(embedder.log.all.prefix(embedded)) + ["Sourdough starter"])
        #expect(try await identifiers("bread", .semantic, in: index).contains("late"))
    }

    @Test("Another model's vectors are replaced; an interrupted run resumes where it stopped")
    func modelChangeAndResume() async throws {
        let index = try await semanticIndex()
        var failing = ConceptEmbedder(identifier: "concepts@2")
        failing.failAfter = 2
        await index.attach(embedder: failing)
        await index.waitForSemanticIndexing()
        try await index.setSemanticSearch(enabled: true, embedder: nil)
        await #expect(throws: ConceptEmbedder.Failure.self) { try await index.embedPendingItems(batchSize: 2) }
        let partial = try #require(try await index.semanticIndexingProgress())
        #expect(partial.embeddedCount == 2)
        #expect(try await vectorCount(index) == 2)

        let second = ConceptEmbedder(identifier: "concepts@2")
        await index.attach(embedder: second)
        await index.waitForSemanticIndexing()
        try await index.embedPendingItems(batchSize: 2)
        #expect(second.log.all.count == journal.count - 3)
        #expect(try await index.semanticIndexingProgress()?.fractionCompleted == 1)
        #expect(try await identifiers("jogging", in: index) == ["run"])
    }

    @Test("Without an embedder or with semantic search off, queries stay lexical and indexing says why")
    func withoutModel() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems(journal)
        #expect(try await identifiers("river", in: index) == ["run"])
        await #expect(throws: SpotlightError.self) { try await index.embedPendingItems() }
        await index.attach(embedder: ConceptEmbedder())
        #expect(try await identifiers("jogging", in: index) == [])
        do {
            try await index.embedPendingItems()
            Issue.record("embedding an index with semantic search off succeeded")
        } catch let error as SpotlightError {
            #expect(error.description.contains("semantic search is off"))
        }
    }

    @Test("The int8 scan keeps the exact best candidates of random vectors")
    func int8ScanMatchesExact() async throws {
        var generator = SystemRandomNumberGenerator()
        let dimension = 48
        func unit() -> [Float] {
            let raw = (0..<dimension).map { _ in Float.random(in: -1...1, using: &generator) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
        let vectors = (0..<33_000).map { _ in unit() }
        var matrix = VectorMatrix(model: "m", generation: 0, dimension: dimension, itemIds: [], scales: [], rows: [])
        matrix.rows.reserveCapacity(vectors.count * dimension)
        for (offset, vector) in vectors.enumerated() {
            let quantized = QuantizedVector(vector)
            matrix.itemIds.append(Int64(offset + 1))
            matrix.scales.append(quantized.scale)
            matrix.rows.append(contentsOf: quantized.quantized)
        }
        for _ in 0..<2 {
            let query = unit()
            var exact: [(id: Int64, score: Float)] = []
            exact.reserveCapacity(vectors.count)
            for (offset, vector) in vectors.enumerated() {
                var dot: Float = 0
                for i in 0..<dimension { dot += vector[i] * query[i] }
                exact.append((Int64(offset + 1), dot))
            }
            exact.sort { $0.score > $1.score }
            let candidates = matrix.candidates(for: query, limit: 50)
            #expect(candidates.count == 50)
            let found = Set(candidates.map(\.itemId))
            #expect(exact.prefix(5).allSatisfy { found.contains($0.id) })
            #expect(abs(candidates[0].score - exact[0].score) < 0.03)
        }
        #expect(VectorMatrix.top([0.1, 0.5, 0.5, 0.9, 0.2], limit: 3).map(\.index) == [3, 1, 2])
    }

    @Test("A candidate limit of any size keeps every row, best first, without overflowing or reserving for the limit")
    func hugeCandidateLimit() {
        #expect(VectorMatrix.top([0.1, 0.5, 0.5, 0.9, 0.2], limit: .max).map(\.index) == [3, 1, 2, 4, 0])
        #expect(VectorMatrix.top([0.1, 0.5], limit: 0).isEmpty)
        #expect(VectorMatrix.top([], limit: .max).isEmpty)
        var matrix = VectorMatrix(model: "m", dimension: 2)
        matrix.append(itemId: 1, vector: [1, 0])
        matrix.append(itemId: 2, vector: [0.6, 0.8])
        matrix.append(itemId: 3, vector: [0, 1])
        #expect(matrix.candidates(for: [1, 0], limit: .max).map(\.itemId) == [1, 2, 3])
        #expect(matrix.candidates(for: [1, 0], limit: .max / 2 + 1, prefilter: false).map(\.itemId) == [1, 2, 3])
    }

    @Test("A batch embedded as two halves on two threads equals one pass, in order; errors come through")
    func parallelHalves() throws {
        let embedder = ConceptEmbedder()
        let texts = (0..<21).map { "note \($0) about running and bread number \($0 * 7)" }
        let parallel = try SemanticIndexer.embedInParallel(texts, with: embedder)
        #expect(parallel == texts.map(embedder.vector))
        var failing = ConceptEmbedder()
        failing.failAfter = 5
        #expect(throws: ConceptEmbedder.Failure.self) { try SemanticIndexer.embedInParallel(texts, with: failing) }
    }

    @Test("Fusion by reciprocal rank and by weighted sum", arguments: [false, true])
    func fusion(weighted: Bool) {
        let method: RankFusion = weighted ? .weightedSum(semanticWeight: 0.5) : .standard
        let fused = FusedRanking(method: method, lexical: [(1, 8), (2, 4)], semantic: [(3, 0.6), (2, 0.3)])
        if weighted {
            #expect(fused.parts[1]?.score == 0.5)
            #expect(fused.parts[2]?.score == 0.25 + 0.25)
            #expect(fused.parts[3]?.score == 0.5)
        } else {
            #expect(fused.parts[1]?.score == 1.0 / 61)
            #expect(fused.parts[2]?.score == 1.0 / 62 + 1.0 / 62)
            #expect(fused.parts[3]?.score == 1.0 / 61)
            #expect(fused.bestScore == 2.0 / 62)
        }
        #expect(fused.parts[2]?.lexicalRank == 2)
        #expect(fused.parts[2]?.semanticRank == 2)
        #expect(fused.parts[3]?.lexicalRank == nil)
    }
}

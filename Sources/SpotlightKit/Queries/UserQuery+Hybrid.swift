import EmbeddingKernels
import Foundation
import GRDB
import TextEmbedding

/// Hybrid ranking: the word matches (BM25) and the items closest in meaning, fused.
///
/// 1. The query's vector is compared with every item vector of the index by an int8 scan in
///    memory; the best ``semanticCandidateCount`` are re-ranked with their exact float16
///    vectors, and those at or above the model's similarity floor form the meaning ranking.
/// 2. The word ranking is the lexical query's matches by BM25 (``candidateLimit`` at most).
/// 3. Both lists pass the context's filters; the fused score (``RankFusion``) divided by the
///    query's best is the relevance, to which freshness, engagement and hint add as usual.
extension UserQuery {
    /// Candidates of the int8 scan re-ranked exactly.
    static let semanticCandidateCount = 200

    /// The word matches fused: the best 500 by BM25, or ten times the results asked for (at most
    /// ``candidateLimit``, which is also the length without a result limit). A match further down
    /// would add at most 1/560 to a fused score whose best is at least 1/61.
    static func lexicalListLength(_ context: UserQueryContext) -> Int {
        guard let wanted = context.maxResultCount else { return candidateLimit }
        // A limit given by a caller may be any whole number; ten times it must not overflow.
        guard wanted < candidateLimit / 10 else { return candidateLimit }
        return min(candidateLimit, max(500, 10 * wanted))
    }

    /// The ranked items of a hybrid or semantic query, or `nil` when the query is lexical: the
    /// context asks for words only, the text has no words, or the index has no vectors of an
    /// attached embedder.
    func semanticItems(environment: QueryEnvironment) async throws -> [Item]? {
        guard context.retrieval != .lexical, !Self.typedWords(userQueryString).searched.isEmpty,
            let embedder = try await index.semanticEmbedder()
        else { return nil }
        let storage = index.storage
        let state = index.semantic
        let matrix = try await storage.writer.read { db in
            try state.matrix(storage: storage, model: embedder.identifier, dimension: embedder.dimension, in: db)
        }
        guard let matrix, matrix.count > 0 else { return nil }
        guard let queryVector = try embedder.embed([userQueryString], role: .query).first else { return nil }
        let candidates = matrix.candidates(for: queryVector, limit: Self.semanticCandidateCount)

        let filters = try context.filterQueries.map { try QueryExpression.parse($0) }
        let filter = CompiledFilter.and(try filters.map { try QuerySQLCompiler.compile($0, environment: environment) })
        let wanted = Set(context.fetchAttributes.map(AttributeCatalog.canonicalName))
        let ftsQuery = context.retrieval == .semantic ? nil : Self.fullTextQuery(userQueryString)
        let context = self.context
        let now = environment.now.timeIntervalSince1970
        let floor = Double(embedder.similarityFloor)
        return try await storage.writer.read { db in
            SpotlightFunctions.install(in: db)
            let cosines = try Self.exactCosines(of: candidates.map(\.itemId), to: queryVector, in: db)
                .filter { $0.value >= floor }
            var lexical: [Int64: Double] = [:]
            if let ftsQuery {
                lexical = try Self.lexicalMatches(ftsQuery, limit: Self.lexicalListLength(context), in: db)
            }
            return try Self.fusedItems(
                lexical: lexical, semantic: cosines, filter: filter, wanted: wanted, context: context,
                storage: storage, now: now, in: db)
        }
    }

    /// The cosine of each item's stored float16 vector with the query.
    private static func exactCosines(of itemIds: [Int64], to query: [Float], in db: Database) throws -> [Int64: Double] {
        guard !itemIds.isEmpty else { return [:] }
        let ids = "[" + itemIds.map(String.init).joined(separator: ",") + "]"
        var cosines: [Int64: Double] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT itemId, exact FROM spotlightItemEmbedding WHERE itemId IN (SELECT value FROM json_each(?))",
            arguments: [ids])
        while let row = try rows.next() {
            let vector = QuantizedVector.exactVector(row[1])
            guard vector.count == query.count else { continue }
            cosines[row[0]] = Double(ek_dot(vector, query, Int32(query.count)))
        }
        return cosines
    }

    /// The text score (`-bm25()` with the column weights) of the best word matches.
    private static func lexicalMatches(_ ftsQuery: FullTextQuery, limit: Int, in db: Database) throws -> [Int64: Double] {
        let (sql, arguments) = ftsQuery.matchesSQL(weights: Ranking.columnWeights)
        let rows = try Row.fetchCursor(
            db, sql: sql + " ORDER BY textScore DESC LIMIT ?", arguments: StatementArguments(arguments + [limit.databaseValue]))
        var matches: [Int64: Double] = [:]
        while let row = try rows.next() { matches[row[0]] = row[1] }
        return matches
    }

    /// Applies the filters to the union of both lists, fuses, adds the other signals, and ranks.
    private static func fusedItems(
        lexical: [Int64: Double], semantic: [Int64: Double], filter: CompiledFilter, wanted: Set<String>,
        context: UserQueryContext, storage: IndexStorage, now: Double, in db: Database
    ) throws -> [Item] {
        let union = Set(lexical.keys).union(semantic.keys)
        let sortedUnion = union.sorted()
        var signals: [Int64: RankingInputs] = [:]
        for start in stride(from: 0, to: union.count, by: 4_096) {
            let chunk = sortedUnion[start..<min(sortedUnion.count, start + 4_096)]
            signals.merge(try Ranking.signals(of: chunk, filter: filter, indexId: storage.indexId, now: now, in: db)) { $1 }
        }
        let lexicalOrder = lexical.filter { signals[$0.key] != nil }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let semanticOrder = semantic.filter { signals[$0.key] != nil }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let fusion = FusedRanking(
            method: context.fusion,
            lexical: lexicalOrder.map { ($0.key, $0.value) }, semantic: semanticOrder.map { ($0.key, $0.value) })

        var scored: [(id: Int64, explanation: ScoreExplanation)] = []
        scored.reserveCapacity(signals.count)
        for (id, var inputs) in signals {
            guard let fused = fusion.parts[id] else { continue }
            inputs.bm25 = lexical[id] ?? 0
            inputs.maxBm25 = fusion.bestTextScore
            var explanation = Ranking.explain(inputs)
            explanation.relevance = fusion.bestScore > 0 ? fused.score / fusion.bestScore : 0
            explanation.semantic = semantic[id]
            explanation.fusion = fused
            explanation.total =
                Ranking.relevanceWeight * explanation.relevance + Ranking.freshnessWeight * explanation.freshness
                + Ranking.engagementWeight * explanation.engagement + Ranking.hintWeight * explanation.hint
            scored.append((id, explanation))
        }
        scored.sort { $0.explanation.total != $1.explanation.total ? $0.explanation.total > $1.explanation.total : $0.id < $1.id }
        if let limit = context.maxResultCount, scored.count > max(0, limit) { scored.removeLast(scored.count - max(0, limit)) }

        return try rankedItems(scored, wanted: wanted, context: context, in: db)
    }
}

/// The fused relevance of every item in either ranking.
struct FusedRanking {
    var parts: [Int64: ScoreExplanation.Fusion] = [:]
    var bestScore = 0.0
    var bestTextScore = 0.0

    /// - Parameters:
    ///   - method: How to fuse.
    ///   - lexical: Item and text score, best first.
    ///   - semantic: Item and cosine, best first.
    init(method: RankFusion, lexical: [(Int64, Double)], semantic: [(Int64, Double)]) {
        bestTextScore = lexical.first?.1 ?? 0
        let bestCosine = semantic.first?.1 ?? 0
        for (offset, (id, textScore)) in lexical.enumerated() {
            let score: Double
            switch method {
            case .reciprocalRank(let k): score = 1 / (k + Double(offset + 1))
            case .weightedSum(let weight): score = bestTextScore > 0 ? (1 - weight) * textScore / bestTextScore : 0
            }
            parts[id] = ScoreExplanation.Fusion(method: method, lexicalRank: offset + 1, semanticRank: nil, score: score)
        }
        for (offset, (id, cosine)) in semantic.enumerated() {
            let score: Double
            switch method {
            case .reciprocalRank(let k): score = 1 / (k + Double(offset + 1))
            case .weightedSum(let weight): score = bestCosine > 0 ? weight * max(0, cosine) / bestCosine : 0
            }
            var part = parts[id] ?? ScoreExplanation.Fusion(method: method, lexicalRank: nil, semanticRank: nil, score: 0)
            part.semanticRank = offset + 1
            part.score += score
            parts[id] = part
        }
        bestScore = parts.values.map(\.score).max() ?? 0
    }
}

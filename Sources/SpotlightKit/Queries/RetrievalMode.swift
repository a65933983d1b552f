/// How a user query finds items: by words, by meaning, or both fused.
///
/// ```swift
/// var context = UserQueryContext()
/// context.retrieval = .lexical   // words only, as `semantic: false` on the search step
/// ```
///
/// `.hybrid` and `.semantic` need an index with semantic search on, an attached embedder and
/// vectors of its model; otherwise the query is lexical.
public enum RetrievalMode: String, Sendable, Hashable, CaseIterable {
    /// Typed words and their prefixes, ranked by BM25.
    case lexical
    /// Items whose vectors are closest to the query's, above the model's similarity floor.
    case semantic
    /// Both lists fused (see ``RankFusion``); the default.
    case hybrid
}

/// How hybrid queries fuse the word ranking with the meaning ranking.
///
/// ```swift
/// var context = UserQueryContext()
/// context.fusion = .weightedSum(semanticWeight: 0.6)
/// ```
public enum RankFusion: Sendable, Hashable {
    /// Reciprocal rank fusion: `Σ 1 / (k + rank)` over the lists an item is in; `k` is usually 60.
    case reciprocalRank(k: Double)
    /// `(1 − w) · bm25 / best bm25 + w · cosine / best cosine`.
    case weightedSum(semanticWeight: Double)

    /// Reciprocal rank fusion with `k = 60`, the default.
    public static let standard = RankFusion.reciprocalRank(k: 60)
}

extension ScoreExplanation {
    /// The parts of a fused relevance: the item's place in each list and the fused score.
    ///
    /// ```swift
    /// if let fusion = result.explanation.fusion { print(fusion.lexicalRank ?? 0, fusion.semanticRank ?? 0) }
    /// ```
    public struct Fusion: Sendable, Hashable {
        /// The method used.
        public var method: RankFusion
        /// The 1-based place in the word ranking, or `nil` when the words did not match.
        public var lexicalRank: Int?
        /// The 1-based place in the meaning ranking, or `nil` when below the similarity floor.
        public var semanticRank: Int?
        /// The fused score; ``ScoreExplanation/relevance`` is it divided by the best of the query.
        public var score: Double
    }

    /// The relevance details printed by ``description``.
    var relevanceParts: String {
        func f(_ value: Double) -> String { String(format: "%.3f", value) }
        guard let fusion else { return "bm25 \(f(bm25))" }
        let method: String
        switch fusion.method {
        case .reciprocalRank: method = "rrf"
        case .weightedSum: method = "weighted"
        }
        let lexical = fusion.lexicalRank.map { "#\($0) bm25 \(f(bm25))" } ?? "no match"
        let meaning = fusion.semanticRank.map { "#\($0) cosine \(f(semantic ?? 0))" } ?? "below floor"
        return "\(method) \(String(format: "%.4f", fusion.score)): words \(lexical), meaning \(meaning)"
    }
}

import Foundation

/// The measures of one way of searching over every query of a relevance set.
///
/// ```swift
/// let evaluation = try await RelevanceEvaluation(set: set) { query in
///     try await search(query.text)  // item identifiers, best first
/// }
/// print(evaluation.meanNormalizedDiscountedCumulativeGain, evaluation.meanRecall)
/// ```
public struct RelevanceEvaluation: Sendable {
    /// The cutoff of nDCG: 10.
    public static let rankCutoff = 10
    /// The cutoff of recall: 20.
    public static let recallCutoff = 20

    /// One query's results and measures.
    public struct QueryResult: Sendable {
        /// The query.
        public var query: RelevanceQuery
        /// The item identifiers returned, best first (at most ``RelevanceEvaluation/recallCutoff`` are needed).
        public var ranking: [String]
        /// nDCG@10.
        public var normalizedDiscountedCumulativeGain: Double
        /// Recall@20.
        public var recall: Double
        /// The rank (1-based) of the first result graded 2 or 3; `nil` when none is in the ranking.
        public var firstHighlyRelevantRank: Int?
    }

    /// The results, in the set's query order.
    public var results: [QueryResult]

    /// Runs every query of a set through `search` and measures the rankings.
    ///
    /// ```swift
    /// let evaluation = try await RelevanceEvaluation(set: set) { query in ["j-run-river"] }
    /// ```
    ///
    /// - Parameters:
    ///   - set: The relevance set.
    ///   - search: Returns the item identifiers found for a query, best first.
    /// - Throws: What `search` throws.
    public init(set: RelevanceSet, search: (RelevanceQuery) async throws -> [String]) async rethrows {
        var results: [QueryResult] = []
        for query in set.queries {
            results.append(Self.measure(query, ranking: try await search(query)))
        }
        self.results = results
    }

    /// Creates an evaluation from measured results.
    ///
    /// ```swift
    /// let evaluation = RelevanceEvaluation(results: [RelevanceEvaluation.measure(query, ranking: ids)])
    /// ```
    ///
    /// - Parameter results: The per-query results.
    public init(results: [QueryResult]) {
        self.results = results
    }

    /// Measures one query's ranking.
    ///
    /// ```swift
    /// let result = RelevanceEvaluation.measure(query, ranking: ["j-run-river", "j-parkrun"])
    /// ```
    ///
    /// - Parameters:
    ///   - query: The judged query.
    ///   - ranking: Item identifiers, best first.
    /// - Returns: The query's nDCG@10, recall@20 and first highly relevant rank.
    public static func measure(_ query: RelevanceQuery, ranking: [String]) -> QueryResult {
        QueryResult(
            query: query, ranking: ranking,
            normalizedDiscountedCumulativeGain: RankingMetrics.normalizedDiscountedCumulativeGain(
                of: ranking, judgements: query.judgements, cutoff: rankCutoff),
            recall: RankingMetrics.recall(of: ranking, judgements: query.judgements, cutoff: recallCutoff),
            firstHighlyRelevantRank: ranking.firstIndex { (query.judgements[$0] ?? 0) >= 2 }.map { $0 + 1 })
    }

    /// Mean nDCG@10 over the queries; 0 without queries.
    public var meanNormalizedDiscountedCumulativeGain: Double {
        results.isEmpty ? 0 : results.map(\.normalizedDiscountedCumulativeGain).reduce(0, +) / Double(results.count)
    }

    /// Mean recall@20 over the queries; 0 without queries.
    public var meanRecall: Double {
        results.isEmpty ? 0 : results.map(\.recall).reduce(0, +) / Double(results.count)
    }

    /// The evaluation restricted to the queries that pass a test, e.g. one language or one kind.
    ///
    /// ```swift
    /// let japanese = evaluation.filter { $0.language == "ja" }
    /// ```
    ///
    /// - Parameter isIncluded: Whether a query counts.
    /// - Returns: The evaluation of those queries.
    public func filter(_ isIncluded: (RelevanceQuery) -> Bool) -> RelevanceEvaluation {
        RelevanceEvaluation(results: results.filter { isIncluded($0.query) })
    }
}

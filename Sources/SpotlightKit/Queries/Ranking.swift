import Foundation
import GRDB

/// The raw signals of one result, as read from the index.
struct RankingInputs: Sendable {
    var bm25: Double
    var maxBm25: Double
    var lastUsedDate: Double?
    var now: Double
    var selectCount: Int
    var focusCount: Int
    var defaultCount: Int
    var impressionCount: Int
    var rankingHint: Int?

    init(
        bm25: Double, maxBm25: Double, lastUsedDate: Double?, now: Double, selectCount: Int, focusCount: Int,
        defaultCount: Int, impressionCount: Int, rankingHint: Int?
    ) {
        self.bm25 = bm25
        self.maxBm25 = maxBm25
        self.lastUsedDate = lastUsedDate
        self.now = now
        self.selectCount = selectCount
        self.focusCount = focusCount
        self.defaultCount = defaultCount
        self.impressionCount = impressionCount
        self.rankingHint = rankingHint
    }

    init(arguments: [DatabaseValue]) {
        bm25 = Double.fromDatabaseValue(arguments[0]) ?? 0
        maxBm25 = Double.fromDatabaseValue(arguments[1]) ?? 0
        lastUsedDate = Double.fromDatabaseValue(arguments[2])
        now = Double.fromDatabaseValue(arguments[3]) ?? 0
        selectCount = Int.fromDatabaseValue(arguments[4]) ?? 0
        focusCount = Int.fromDatabaseValue(arguments[5]) ?? 0
        defaultCount = Int.fromDatabaseValue(arguments[6]) ?? 0
        impressionCount = Int.fromDatabaseValue(arguments[7]) ?? 0
        rankingHint = Int.fromDatabaseValue(arguments[8])
    }
}

/// How a result's score was made: each signal, its weight, and the total.
///
/// ```swift
/// for try await response in query.responses {
///     if case .item(let result) = response { print(result.explanation) }
/// }
/// // score 0.769 = 0.5×relevance 1.000 (bm25 7.310) + 0.15×freshness 0.707 + 0.25×engagement 0.333 + 0.1×hint 0.800
/// ```
public struct ScoreExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The text score: `-bm25()` with column weights (higher is better).
    public var bm25: Double
    /// The text score divided by the best text score among the matches, 0…1.
    public var relevance: Double
    /// `0.5^(days since lastUsedDate / 30)`, or 0 without a last-used date.
    public var freshness: Double
    /// `w / (w + 1 + 0.1 × impressions)` with `w = selections + 0.5 × default interactions + 0.25 × focuses`.
    public var engagement: Double
    /// `rankingHint / 100`, or 0 without a hint.
    public var hint: Double
    /// The weighted sum of the four signals.
    public var total: Double
    /// The cosine similarity of the item's vector to the query's, when semantic search found it.
    public var semantic: Double? = nil
    /// How the word and meaning rankings were fused into ``relevance``, for hybrid and semantic queries.
    public var fusion: Fusion? = nil

    public var description: String {
        func f(_ value: Double) -> String { String(format: "%.3f", value) }
        return "score \(f(total)) = \(Ranking.relevanceWeight)×relevance \(f(relevance)) (\(relevanceParts))"
            + " + \(Ranking.freshnessWeight)×freshness \(f(freshness))"
            + " + \(Ranking.engagementWeight)×engagement \(f(engagement))"
            + " + \(Ranking.hintWeight)×hint \(f(hint))"
    }
}

/// The ranking formula of user queries.
///
/// `score = 0.50·relevance + 0.25·engagement + 0.15·freshness + 0.10·hint`, where
/// relevance comes from FTS5 `bm25()` with the column weights below, normalized
/// by the best match of the query.
enum Ranking {
    static let relevanceWeight = 0.50
    static let freshnessWeight = 0.15
    static let engagementWeight = 0.25
    static let hintWeight = 0.10

    /// bm25 column weights: title, displayName, keywords, textContent, contentDescription.
    static let columnWeights: [Double] = [10, 10, 5, 1, 2]
    /// Days for freshness to halve.
    static let freshnessHalfLifeDays = 30.0

    /// The score as an SQL expression over the columns of the ranking query, when
    /// SQLite has its math functions; `nil` otherwise (the Swift function is used).
    ///
    /// Only constants of this type appear in it; `?` is the current time.
    static func sqlScore(
        textScore: String, maxTextScore: String, lastUsedDate: String, selects: String,
        focuses: String, defaults: String, impressions: String, hint: String
    ) -> String {
        let weighted = "(\(selects) + 0.5 * \(defaults) + 0.25 * \(focuses))"
        return """
            (\(relevanceWeight) * (CASE WHEN \(maxTextScore) > 0 THEN MIN(1.0, MAX(0.0, \(textScore) / \(maxTextScore))) ELSE 0.0 END)
             + \(freshnessWeight) * (CASE WHEN \(lastUsedDate) IS NULL THEN 0.0
                  ELSE pow(0.5, MAX(0.0, ? - \(lastUsedDate)) / 86400.0 / \(freshnessHalfLifeDays)) END)
             + \(engagementWeight) * (CASE WHEN \(weighted) > 0
                  THEN \(weighted) / (\(weighted) + 1.0 + 0.1 * \(impressions)) ELSE 0.0 END)
             + \(hintWeight) * (COALESCE(MIN(100, MAX(0, \(hint))), 0) / 100.0))
            """
    }

    /// A text score relative to the best of the query, 0…1.
    static func relevance(_ textScore: Double, max maxTextScore: Double) -> Double {
        maxTextScore > 0 ? max(0, min(1, textScore / maxTextScore)) : 0
    }

    /// The ranking signals other than text (recency, engagement, hint) of the items whose row ids
    /// are given, among those that pass the filter and have not expired.
    ///
    /// - Parameters:
    ///   - ids: Item row ids.
    ///   - filter: The compiled filter queries.
    /// - Returns: Inputs with `bm25` and `maxBm25` left at 0, by row id.
    static func signals(
        of ids: some Collection<Int64>, filter: CompiledFilter, indexId: Int64, now: Double, in db: Database
    ) throws -> [Int64: RankingInputs] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT i.id, i.lastUsedDate, i.rankingHint,
                       COALESCE(e.selectCount, 0), COALESCE(e.focusCount, 0),
                       COALESCE(e.defaultCount, 0), COALESCE(e.impressionCount, 0)
                FROM spotlightItem i
                LEFT JOIN spotlightEngagement e ON e.indexId = i.indexId AND e.uniqueIdentifier = i.uniqueIdentifier
                WHERE i.id IN (SELECT value FROM json_each(?)) AND +i.indexId = ?
                  AND (i.expirationDate IS NULL OR i.expirationDate > ?) AND (\(filter.sql))
                """)
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let arguments: [DatabaseValue] = [list.databaseValue, indexId.databaseValue, now.databaseValue]
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments + filter.arguments))
        var found: [Int64: RankingInputs] = [:]
        while let row = try rows.next() {
            found[row[0]] = RankingInputs(
                bm25: 0, maxBm25: 0, lastUsedDate: row[1], now: now,
                selectCount: row[3], focusCount: row[4], defaultCount: row[5], impressionCount: row[6],
                rankingHint: row[2])
        }
        return found
    }

    /// The most that freshness, engagement and hint can add to a score in this index.
    ///
    /// Freshness and hint are at most 1 each; engagement is bounded by the most
    /// engaged item, read from the engagement table (only engaged items count).
    static func otherSignalsBound(indexId: Int64, in db: Database) throws -> Double {
        let engagement =
            try Double.fetchOne(
                db,
                sql: """
                    SELECT MAX(weight / (weight + 1.0 + 0.1 * impressionCount)) FROM (
                        SELECT selectCount + 0.5 * defaultCount + 0.25 * focusCount AS weight, impressionCount
                        FROM spotlightEngagement WHERE indexId = ?
                    ) WHERE weight > 0
                    """, arguments: [indexId]) ?? 0
        // A hair above the exact bound, so rounding can never stop a ranking early.
        return (freshnessWeight + hintWeight + engagementWeight * min(1, engagement)) * (1 + 1e-9) + 1e-12
    }

    static func explain(_ inputs: RankingInputs) -> ScoreExplanation {
        let relevance = relevance(inputs.bm25, max: inputs.maxBm25)
        var freshness = 0.0
        if let lastUsed = inputs.lastUsedDate {
            let days = max(0, inputs.now - lastUsed) / 86_400
            freshness = pow(0.5, days / freshnessHalfLifeDays)
        }
        let weight = Double(inputs.selectCount) + 0.5 * Double(inputs.defaultCount) + 0.25 * Double(inputs.focusCount)
        let engagement = weight > 0 ? weight / (weight + 1 + 0.1 * Double(inputs.impressionCount)) : 0
        let hint = inputs.rankingHint.map { Double(min(100, max(0, $0))) / 100 } ?? 0
        let total =
            relevanceWeight * relevance + freshnessWeight * freshness
            + engagementWeight * engagement + hintWeight * hint
        return ScoreExplanation(
            bm25: inputs.bm25, relevance: relevance, freshness: freshness,
            engagement: engagement, hint: hint, total: total)
    }
}

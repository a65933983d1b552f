import Foundation
import GRDB

/// How user queries rank their matches.
///
/// Text queries take the bounded path of ``topRankedItems(ftsQuery:filter:wanted:context:storage:now:candidateLimit:in:)``:
/// the full-text index alone scores the matches, and the other signals are read
/// only for the best of them, until no remaining match can enter the results.
/// ``exhaustiveRankedItems(ftsQuery:filter:wanted:context:storage:now:in:)``
/// scores every match in one SQL statement; it ranks queries without words and
/// is the reference the bounded path is tested against.
extension UserQuery {
    /// The most matches a text query ranks: beyond it, the most recently added ones.
    static let candidateLimit = 5_000

    static func rankedItems(
        ftsQuery: FullTextQuery?, filter: CompiledFilter, wanted: Set<String>, context: UserQueryContext,
        storage: IndexStorage, now: Double, in db: Database
    ) throws -> [Item] {
        guard let ftsQuery else {
            return try exhaustiveRankedItems(
                ftsQuery: nil, filter: filter, wanted: wanted, context: context,
                storage: storage, now: now, in: db)
        }
        return try topRankedItems(
            ftsQuery: ftsQuery, filter: filter, wanted: wanted, context: context,
            storage: storage, now: now, candidateLimit: candidateLimit, in: db)
    }

    /// One match with its text score and, once read, its other signals.
    private struct Candidate {
        var id: Int64
        var textScore: Double
        var inputs: RankingInputs?
        var score = 0.0
    }

    /// Ranks the matches of a full-text query, reading as few items as the exact order allows.
    ///
    /// 1. One statement on the full-text table gives every match its text score
    ///    (`-bm25()` with the column weights), newest first, at most
    ///    `candidateLimit` of them: up to that many matches the ranking is exact;
    ///    beyond, it ranks the `candidateLimit` most recently added matches.
    /// 2. Matches are visited by decreasing text score, in growing chunks; for each
    ///    chunk one statement reads freshness, hint and engagement and applies the
    ///    index, expiration and filter conditions. The first match that passes has
    ///    the best text score, which normalizes relevance.
    /// 3. The walk stops once the last kept result outscores what any remaining
    ///    match could reach: its relevance plus the most the other signals can add
    ///    (``Ranking/otherSignalsBound(indexId:in:)``).
    ///
    /// Scores and ties (score, then item id) are those of the exhaustive ranking.
    static func topRankedItems(
        ftsQuery: FullTextQuery, filter: CompiledFilter, wanted: Set<String>, context: UserQueryContext,
        storage: IndexStorage, now: Double, candidateLimit: Int, in db: Database
    ) throws -> [Item] {
        let limit = context.maxResultCount.map { max(0, $0) }
        if limit == 0 { return [] }

        let newest = ftsQuery.newestMatchesSQL(weights: Ranking.columnWeights)
        let textScores = try db.cachedStatement(sql: newest.sql)
        var candidates: [Candidate] = []
        let arguments = newest.arguments + [max(1, candidateLimit).databaseValue]
        let rows = try Row.fetchCursor(textScores, arguments: StatementArguments(arguments))
        while let row = try rows.next() {
            candidates.append(Candidate(id: row[0], textScore: row[1]))
        }
        if candidates.isEmpty { return [] }
        candidates.sort { $0.textScore != $1.textScore ? $0.textScore > $1.textScore : $0.id < $1.id }

        let otherSignals = try Ranking.otherSignalsBound(indexId: storage.indexId, in: db)
        var kept: [Candidate] = []
        var maxTextScore: Double?
        var position = 0
        var chunkSize = 64
        while position < candidates.count {
            if let limit, kept.count >= limit, let maxTextScore {
                let reachable =
                    Ranking.relevanceWeight * Ranking.relevance(candidates[position].textScore, max: maxTextScore)
                    + otherSignals
                if kept[limit - 1].score > reachable { break }
            }
            let end = min(candidates.count, position + chunkSize)
            let found = try Ranking.signals(
                of: candidates[position..<end].map(\.id), filter: filter, indexId: storage.indexId, now: now, in: db)
            for var candidate in candidates[position..<end] {
                guard var inputs = found[candidate.id] else { continue }
                if maxTextScore == nil { maxTextScore = candidate.textScore }
                inputs.bm25 = candidate.textScore
                inputs.maxBm25 = maxTextScore!
                candidate.inputs = inputs
                candidate.score = Ranking.explain(inputs).total
                kept.append(candidate)
            }
            kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
            if let limit, kept.count > limit { kept.removeLast(kept.count - limit) }
            position = end
            chunkSize = min(chunkSize * 4, 4_096)
        }

        let ranked = kept.compactMap { candidate in candidate.inputs.map { (candidate.id, Ranking.explain($0)) } }
        return try rankedItems(ranked, wanted: wanted, context: context, in: db)
    }

    /// The result items of ranked item row ids, in order, with their ranks and top-hit marks.
    ///
    /// - Parameters:
    ///   - ranked: Row ids with their explained scores, best first.
    ///   - wanted: The attributes to fetch.
    /// - Returns: The items still stored, ranked from 1.
    static func rankedItems(
        _ ranked: [(id: Int64, explanation: ScoreExplanation)], wanted: Set<String>, context: UserQueryContext, in db: Database
    ) throws -> [Item] {
        let records = try ItemRecord.fetchAll(
            db, sql: "SELECT * FROM spotlightItem WHERE id IN (SELECT value FROM json_each(?))",
            arguments: ["[" + ranked.map { String($0.id) }.joined(separator: ",") + "]"])
        let byId = Dictionary(records.map { ($0.id ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [Item] = []
        results.reserveCapacity(ranked.count)
        for (id, explanation) in ranked {
            guard let record = byId[id] else { continue }
            let offset = results.count
            let topHit = context.enableRankedResults && offset < (context.maxRankedResultCount ?? Int.max)
            results.append(
                Item(
                    item: try IndexStorage.item(from: record, attributes: wanted, in: db),
                    rank: offset + 1, score: explanation.total, isTopHit: topHit, explanation: explanation))
        }
        return results
    }

    /// Ranks every match in one SQL statement: the reference ranking.
    static func exhaustiveRankedItems(
        ftsQuery: FullTextQuery?, filter: CompiledFilter, wanted: Set<String>, context: UserQueryContext,
        storage: IndexStorage, now: Double, in db: Database
    ) throws -> [Item] {
        var arguments: [DatabaseValue] = []
        let matches: String
        if let ftsQuery {
            (matches, arguments) = ftsQuery.matchesSQL(weights: Ranking.columnWeights)
        } else {
            matches = "SELECT id, 0.0 AS textScore FROM spotlightItem WHERE indexId = ?"
            arguments.append(storage.indexId.databaseValue)
        }
        arguments += [storage.indexId.databaseValue, now.databaseValue]
        arguments += filter.arguments
        let score: String
        if SpotlightFunctions.hasMathFunctions(db) {
            score = Ranking.sqlScore(
                textScore: "n.textScore", maxTextScore: "n.maxTextScore", lastUsedDate: "n.lastUsedDate",
                selects: "n.selectCount", focuses: "n.focusCount", defaults: "n.defaultCount",
                impressions: "n.impressionCount", hint: "n.rankingHint")
        } else {
            score = """
                spotlight_score(n.textScore, n.maxTextScore, n.lastUsedDate, ?, n.selectCount,
                                n.focusCount, n.defaultCount, n.impressionCount, n.rankingHint)
                """
        }
        arguments.append(now.databaseValue)
        arguments.append((context.maxResultCount.map { max(0, $0) } ?? -1).databaseValue)
        let sql = """
            WITH matches AS MATERIALIZED (\(matches)),
            candidates AS (
                SELECT i.id, m.textScore, i.lastUsedDate, i.rankingHint,
                       COALESCE(e.selectCount, 0) AS selectCount, COALESCE(e.focusCount, 0) AS focusCount,
                       COALESCE(e.defaultCount, 0) AS defaultCount, COALESCE(e.impressionCount, 0) AS impressionCount
                FROM matches m
                JOIN spotlightItem i ON i.id = m.id
                LEFT JOIN spotlightEngagement e ON e.indexId = i.indexId AND e.uniqueIdentifier = i.uniqueIdentifier
                WHERE +i.indexId = ? AND (i.expirationDate IS NULL OR i.expirationDate > ?) AND (\(filter.sql))
            ),
            normalized AS (
                SELECT c.*, MAX(c.textScore) OVER () AS maxTextScore FROM candidates c
            ),
            top AS (
                SELECT n.*, \(score) AS score
                FROM normalized n ORDER BY score DESC, n.id LIMIT ?
            )
            SELECT top.textScore AS rankTextScore, top.maxTextScore AS rankMaxTextScore,
                   top.selectCount AS rankSelectCount, top.focusCount AS rankFocusCount,
                   top.defaultCount AS rankDefaultCount, top.impressionCount AS rankImpressionCount,
                   i.*
            FROM top JOIN spotlightItem i ON i.id = top.id
            ORDER BY top.score DESC, top.id
            """
        let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
        var results: [Item] = []
        results.reserveCapacity(rows.count)
        for (offset, row) in rows.enumerated() {
            let record = try ItemRecord(row: row)
            let inputs = RankingInputs(
                bm25: row["rankTextScore"] ?? 0, maxBm25: row["rankMaxTextScore"] ?? 0,
                lastUsedDate: record.lastUsedDate, now: now,
                selectCount: row["rankSelectCount"] ?? 0, focusCount: row["rankFocusCount"] ?? 0,
                defaultCount: row["rankDefaultCount"] ?? 0, impressionCount: row["rankImpressionCount"] ?? 0,
                rankingHint: record.rankingHint)
            let explanation = Ranking.explain(inputs)
            let topHit = context.enableRankedResults && offset < (context.maxRankedResultCount ?? Int.max)
            results.append(
                Item(
                    item: try IndexStorage.item(from: record, attributes: wanted, in: db),
                    rank: offset + 1, score: explanation.total, isTopHit: topHit, explanation: explanation))
        }
        return results
    }
}

import Foundation
import GRDB

extension SuggestionEngine {
    /// The most recent matches whose words complete a CJK word.
    static let cjkCompletionSampleSize = 200

    /// Completes the last piece of a typed CJK word with whole words of the items the query finds.
    ///
    /// The piece after the last hiragana of `last` (嵐山の紅 → 紅) is completed with the
    /// words (``CJKSegmenter/suggestionWords(in:)``) and CJK keywords of the newest
    /// ``cjkCompletionSampleSize`` items that match `lead` and `last`, most frequent first,
    /// then shortest. A word that ends in hiragana is not completed: it ends with a particle
    /// or an ending, so its last word is complete.
    ///
    /// - Returns: The completed `last` words and how many of the sampled items hold each completion.
    static func cjkCompletions(lead: String, last: String, limit: Int, indexId: Int64, in db: Database) throws -> [(String, Int)] {
        guard let run = CJKSegmenter.runs(in: last).last,
            let lastScalar = run.unicodeScalars.last, CJKSegmenter.script(of: lastScalar) != .hiragana,
            let piece = CJKSegmenter.contentChunks(of: run).last,
            let query = FullTextQuery(typedWords: (lead + " " + last).split(separator: " "))
        else { return [] }
        let normalizedLast = last.precomposedStringWithCompatibilityMapping
        guard normalizedLast.hasSuffix(piece) else { return [] }
        let before = String(normalizedLast.dropLast(piece.count))

        let (matches, arguments) = query.matchesSQL(weights: Ranking.columnWeights)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT i.title, i.displayName, i.keywords, i.textContent, i.contentDescription
                FROM (\(matches)) m JOIN spotlightItem i ON i.id = m.id
                WHERE +i.indexId = ? ORDER BY i.id DESC LIMIT ?
                """,
            arguments: StatementArguments(arguments + [indexId.databaseValue, cjkCompletionSampleSize.databaseValue]))
        var counts: [String: Int] = [:]
        for row in rows {
            var words: Set<String> = []
            for column in 0..<5 {
                guard let text: String = row[column] else { continue }
                words.formUnion(CJKSegmenter.suggestionWords(in: text))
            }
            for keyword in ItemRecord.split(row["keywords"]) ?? [] where CJKSegmenter.mayContainCJK(keyword) {
                words.insert(keyword.precomposedStringWithCompatibilityMapping)
            }
            for word in words where word.hasPrefix(piece) && word != piece {
                counts[word, default: 0] += 1
            }
        }
        return
            counts
            .sorted { lhs, rhs in
                if lhs.value != rhs.value { return lhs.value > rhs.value }
                if lhs.key.count != rhs.key.count { return lhs.key.count < rhs.key.count }
                return lhs.key < rhs.key
            }
            .prefix(limit)
            .map { (before + $0.key, $0.value) }
    }
}

import Foundation
import GRDB

/// The full-text part of a user query: typed words for the word index (`spotlightItemFTS`)
/// and CJK words for the character-pair index (``CJKBigramIndex``), all of them required.
///
/// A word without CJK letters matches a word or the start of one, as `"word"*`. A CJK word
/// is cut at its hiragana (``CJKSegmenter/searchedSegments(of:)``) and each piece must
/// appear somewhere in the text: two or more characters as a phrase of character pairs, a
/// single character as the start of a pair.
///
/// ```swift
/// let query = FullTextQuery(typedWords: ["carmel", "紅葉"])
/// query?.words         // "\"carmel\"*"
/// query?.cjkSegments   // "\"紅葉\""
/// ```
struct FullTextQuery: Sendable, Hashable {
    /// The FTS5 query on `spotlightItemFTS`, or `nil` when every word is CJK.
    var words: String?
    /// The FTS5 query on `spotlightItemCJK`, or `nil` when no word has CJK letters.
    var cjkSegments: String?

    /// The query for the typed words, or `nil` when there are none.
    init?(typedWords: [Substring]) {
        var wordTerms: [String] = []
        var cjkTerms: [String] = []
        for word in typedWords {
            let text = String(word)
            let runs = CJKSegmenter.runs(in: text)
            if runs.isEmpty {
                wordTerms.append(Self.prefixTerm(text))
                continue
            }
            for run in runs {
                for segment in CJKSegmenter.searchedSegments(of: run) {
                    cjkTerms.append(Self.cjkTerm(segment))
                }
            }
            for rest in CJKSegmenter.nonCJKText(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
                wordTerms.append(Self.prefixTerm(String(rest)))
            }
        }
        guard !wordTerms.isEmpty || !cjkTerms.isEmpty else { return nil }
        words = wordTerms.isEmpty ? nil : wordTerms.joined(separator: " AND ")
        cjkSegments = cjkTerms.isEmpty ? nil : cjkTerms.joined(separator: " AND ")
    }

    /// A word as a quoted prefix term.
    static func prefixTerm(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"*"
    }

    /// A CJK piece: the phrase of its character pairs, or one character as a prefix.
    static func cjkTerm(_ segment: String) -> String {
        let scalars = segment.unicodeScalars
        if scalars.count == 1 { return "\"" + segment + "\"*" }
        return "\"" + CJKSegmenter.bigrams(of: segment).dropLast().joined(separator: " ") + "\""
    }

    /// `SELECT id, textScore` of every match: `-bm25()` with the column weights, summed over
    /// both tables when both are searched.
    ///
    /// - Parameter weights: The bm25 column weights (title, displayName, keywords, textContent, contentDescription).
    /// - Returns: The SQL (columns `id` and `textScore`) and its arguments.
    func matchesSQL(weights: [Double]) -> (sql: String, arguments: [DatabaseValue]) {
        let weightArguments = weights.map(\.databaseValue)
        let marks = weights.map { _ in "?" }.joined(separator: ", ")
        switch (words, cjkSegments) {
        case (let words?, let cjk?):
            return (
                """
                SELECT spotlightItemFTS.rowid AS id,
                       -bm25(spotlightItemFTS, \(marks)) - bm25(spotlightItemCJK, \(marks)) AS textScore
                FROM spotlightItemFTS JOIN spotlightItemCJK ON spotlightItemCJK.rowid = spotlightItemFTS.rowid
                WHERE spotlightItemFTS MATCH ? AND spotlightItemCJK MATCH ?
                """,
                weightArguments + weightArguments + [words.databaseValue, cjk.databaseValue]
            )
        case (let words?, nil):
            return (
                """
                SELECT rowid AS id, -bm25(spotlightItemFTS, \(marks)) AS textScore
                FROM spotlightItemFTS WHERE spotlightItemFTS MATCH ?
                """,
                weightArguments + [words.databaseValue]
            )
        case (nil, let cjk?):
            return (
                """
                SELECT rowid AS id, -bm25(spotlightItemCJK, \(marks)) AS textScore
                FROM spotlightItemCJK WHERE spotlightItemCJK MATCH ?
                """,
                weightArguments + [cjk.databaseValue]
            )
        case (nil, nil):
            return ("SELECT 0 AS id, 0.0 AS textScore WHERE 0", [])
        }
    }

    /// The newest `LIMIT ?` matches with their text scores (bind the limit after the arguments).
    func newestMatchesSQL(weights: [Double]) -> (sql: String, arguments: [DatabaseValue]) {
        let (sql, arguments) = matchesSQL(weights: weights)
        let order = words != nil && cjkSegments != nil ? "spotlightItemFTS.rowid" : "rowid"
        return (sql + " ORDER BY \(order) DESC LIMIT ?", arguments)
    }
}

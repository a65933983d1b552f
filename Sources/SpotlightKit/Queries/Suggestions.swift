import Foundation
import GRDB
import IntentKit

/// Completes and corrects the words of a user query from the index vocabulary (an `fts5vocab`
/// table) and, for CJK words, from the words of the items the query finds.
///
/// - A typed word that is a word of the index, or the start of one, is never corrected: a
///   correction would only be another spelling of a word that already matched (`tide` does
///   not become "time").
/// - A correction is a term within a small edit distance (1 up to six letters, 2 beyond),
///   sharing the first letter, ranked by a cost that weighs the distance against how many
///   items hold the term (``correctionCost(distance:count:)``); it is offered only when the
///   whole corrected query finds an item (`open shelf` does not become "open swell" in an
///   index without "open").
/// - Completions extend the last word, most frequent first; those that appear with the
///   words before them come first.
/// - A CJK word is completed by word, not by clause: from the kanji, katakana and hangul
///   pieces (and the keywords) of the items the query finds (``CJKSegmenter/suggestionWords(in:)``).
enum SuggestionEngine {
    /// Words as the full-text tokenizers see them: split at anything but letters and digits,
    /// folded, except CJK letters, whose marks are part of the letter (ド is not ト).
    static func tokens(_ text: String) -> [String] {
        var folded = ""
        for character in text {
            if let scalar = character.unicodeScalars.first, CJKSegmenter.script(of: scalar) != nil {
                folded.append(character)
            } else {
                folded += TextFolding.fold(String(character))
            }
        }
        return folded.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    static func suggestions(for userQuery: String, limit: Int, indexId: Int64, in db: Database) throws -> [UserQuery.Suggestion] {
        guard limit > 0 else { return [] }
        let words = tokens(userQuery)
        guard !words.isEmpty else { return [] }
        let endsWithSeparator = userQuery.last.map { !($0.isLetter || $0.isNumber) } ?? true
        let leading = endsWithSeparator ? words : Array(words.dropLast())
        let last = endsWithSeparator ? nil : words.last

        var correctedLeading: [String] = []
        var leadingCorrected = false
        for word in leading {
            if try CJKSegmenter.mayContainCJK(word) || hasTerm(word, in: db) || hasPrefix(word, in: db) {
                correctedLeading.append(word)
            } else if let correction = try corrections(for: word, asPrefix: false, limit: 1, in: db).first {
                correctedLeading.append(correction.term)
                leadingCorrected = true
            } else {
                correctedLeading.append(word)
            }
        }
        // Four candidates for each suggestion wanted, for those that find nothing or repeat; a
        // count given by a caller may be any whole number, and four times it must not overflow.
        let candidateLimit = min(limit, Int.max / 4) * 4
        let lead = correctedLeading.joined(separator: " ")
        func text(_ term: String) -> String { lead.isEmpty ? term : lead + " " + term }
        func findsSomething(_ text: String) throws -> Bool {
            guard let query = FullTextQuery(typedWords: text.split(separator: " ")) else { return false }
            return try matchCount(query, indexId: indexId, limit: 1, in: db) > 0
        }

        var results: [UserQuery.Suggestion] = []
        var seen: Set<String> = []
        func add(_ suggestion: UserQuery.Suggestion) {
            guard results.count < limit, seen.insert(suggestion.text).inserted else { return }
            results.append(suggestion)
        }

        if let last, CJKSegmenter.mayContainCJK(last) {
            for (completed, count) in try cjkCompletions(lead: lead, last: last, limit: limit, indexId: indexId, in: db) {
                add(UserQuery.Suggestion(text: text(completed), kind: leadingCorrected ? .correction : .completion, matchCount: count))
            }
        } else if let last {
            var completions = try completions(of: last, limit: candidateLimit, in: db)
            if !lead.isEmpty {
                // Terms that appear with the words before them first; the order is otherwise kept.
                let together = try completions.map { try findsSomething(text($0.0)) }
                completions = zip(completions, together).enumerated()
                    .sorted { ($0.element.1 ? 0 : 1, $0.offset) < ($1.element.1 ? 0 : 1, $1.offset) }
                    .map(\.element.0)
            }
            for (term, count) in completions {
                add(UserQuery.Suggestion(text: text(term), kind: leadingCorrected ? .correction : .completion, matchCount: count))
            }
            let matched = try hasTerm(last, in: db) || hasPrefix(last, in: db)
            if results.count < limit && last.count >= 3 && !matched {
                for candidate in try corrections(for: last, asPrefix: true, limit: candidateLimit, in: db) {
                    guard try findsSomething(text(candidate.term)) else { continue }
                    add(UserQuery.Suggestion(text: text(candidate.term), kind: .correction, matchCount: candidate.count))
                }
            }
        } else if leadingCorrected, try findsSomething(lead) {
            add(UserQuery.Suggestion(text: lead, kind: .correction, matchCount: 0))
        }
        return results
    }

    private static func hasTerm(_ term: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM spotlightItemVocabulary WHERE term = ?)", arguments: [term]) ?? false
    }

    private static func hasPrefix(_ prefix: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM spotlightItemVocabulary WHERE term >= ? AND term < ?)
                """, arguments: [prefix, prefix + "\u{10FFFF}"]) ?? false
    }

    /// How many items of the index a full-text query finds, counting up to `limit`.
    static func matchCount(_ query: FullTextQuery, indexId: Int64, limit: Int, in db: Database) throws -> Int {
        let (matches, arguments) = query.matchesSQL(weights: Ranking.columnWeights)
        return try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM (
                    SELECT 1 FROM (\(matches)) m JOIN spotlightItem i ON i.id = m.id WHERE +i.indexId = ? LIMIT ?
                )
                """, arguments: StatementArguments(arguments + [indexId.databaseValue, limit.databaseValue])) ?? 0
    }

    /// Vocabulary terms that extend `prefix`, most frequent first.
    private static func completions(of prefix: String, limit: Int, in db: Database) throws -> [(String, Int)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT term, doc FROM spotlightItemVocabulary
                WHERE term > ? AND term < ?
                ORDER BY doc DESC, term LIMIT ?
                """, arguments: [prefix, prefix + "\u{10FFFF}", limit])
        return rows.map { ($0["term"], $0["doc"]) }
    }

    struct Candidate {
        var term: String
        var count: Int
        var distance: Int
        var cost: Double { SuggestionEngine.correctionCost(distance: distance, count: count) }
    }

    /// The cost of correcting to a term: its edit distance, less a quarter edit for each
    /// doubling of the items that hold it, so a common word beats a rare one at the same
    /// distance and a word sixteen times as common beats one a whole edit closer.
    static func correctionCost(distance: Int, count: Int) -> Double {
        Double(distance) - 0.25 * log2(Double(max(0, count)) + 1)
    }

    /// The most edits a correction may make to a word of this many characters.
    static func maxDistance(forLength length: Int) -> Int {
        length <= 6 ? 1 : 2
    }

    /// Vocabulary terms within a small edit distance, sharing the first letter, cheapest first.
    ///
    /// With `asPrefix`, the distance is measured against the closest prefix of
    /// each term, so a misspelled beginning still finds its completion.
    static func corrections(for word: String, asPrefix: Bool, limit: Int, in db: Database) throws -> [Candidate] {
        let characters = Array(word)
        guard characters.count >= 3, let first = characters.first else { return [] }
        let maxDistance = maxDistance(forLength: characters.count)
        let lower = String(first)
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT term, doc FROM spotlightItemVocabulary WHERE term >= ? AND term < ?
                """, arguments: [lower, lower + "\u{10FFFF}"])
        var candidates: [Candidate] = []
        while let row = try rows.next() {
            let term: String = row["term"]
            if term == word || (asPrefix && term.hasPrefix(word)) { continue }
            let termCharacters = Array(term)
            if !asPrefix && abs(termCharacters.count - characters.count) > maxDistance { continue }
            if asPrefix && termCharacters.count + maxDistance < characters.count { continue }
            let distance = NameSuggestion.editDistance(characters, termCharacters, prefixOfSecond: asPrefix, limit: maxDistance)
            if distance <= maxDistance {
                candidates.append(Candidate(term: term, count: row["doc"], distance: distance))
            }
        }
        candidates.sort { ($0.cost, $0.term) < ($1.cost, $1.term) }
        return Array(candidates.prefix(limit))
    }
}

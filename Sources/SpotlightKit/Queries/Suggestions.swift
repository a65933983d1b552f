import Foundation
import GRDB
import IntentKit

/// Completes and corrects the words of a user query from the index vocabulary (an `fts5vocab` table).
enum SuggestionEngine {
    /// Words as the full-text tokenizer sees them: folded, split at anything but letters and digits.
    static func tokens(_ text: String) -> [String] {
        TextFolding.fold(text)
            .split(whereSeparator: { !($0.isLetter || $0.isNumber) })
            .map(String.init)
    }

    static func suggestions(for userQuery: String, limit: Int, in db: Database) throws -> [UserQuery.Suggestion] {
        guard limit > 0 else { return [] }
        let words = tokens(userQuery)
        guard !words.isEmpty else { return [] }
        let endsWithSeparator = userQuery.last.map { !($0.isLetter || $0.isNumber) } ?? true
        let leading = endsWithSeparator ? words : Array(words.dropLast())
        let last = endsWithSeparator ? nil : words.last

        var correctedLeading: [String] = []
        var leadingCorrected = false
        for word in leading {
            if try hasTerm(word, in: db) || hasPrefix(word, in: db) {
                correctedLeading.append(word)
            } else if let correction = try corrections(for: word, asPrefix: false, limit: 1, in: db).first {
                correctedLeading.append(correction.term)
                leadingCorrected = true
            } else {
                correctedLeading.append(word)
            }
        }
        let lead = correctedLeading.joined(separator: " ")
        func text(_ term: String) -> String { lead.isEmpty ? term : lead + " " + term }

        var results: [UserQuery.Suggestion] = []
        var seen: Set<String> = []
        func add(_ suggestion: UserQuery.Suggestion) {
            guard results.count < limit, seen.insert(suggestion.text).inserted else { return }
            results.append(suggestion)
        }

        if let last {
            for (term, count) in try completions(of: last, limit: limit, in: db) {
                add(UserQuery.Suggestion(text: text(term), kind: leadingCorrected ? .correction : .completion, matchCount: count))
            }
            if results.count < limit && last.count >= 3 {
                for candidate in try corrections(for: last, asPrefix: true, limit: limit, in: db) {
                    add(UserQuery.Suggestion(text: text(candidate.term), kind: .correction, matchCount: candidate.count))
                }
            }
        } else if leadingCorrected {
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
    }

    /// Vocabulary terms within a small edit distance, sharing the first letter.
    ///
    /// With `asPrefix`, the distance is measured against the closest prefix of
    /// each term, so a misspelled beginning still finds its completion.
    static func corrections(for word: String, asPrefix: Bool, limit: Int, in db: Database) throws -> [Candidate] {
        let characters = Array(word)
        guard characters.count >= 3, let first = characters.first else { return [] }
        let maxDistance = characters.count <= 4 ? 1 : 2
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
        candidates.sort { ($0.distance, -$0.count, $0.term) < ($1.distance, -$1.count, $1.term) }
        return Array(candidates.prefix(limit))
    }
}

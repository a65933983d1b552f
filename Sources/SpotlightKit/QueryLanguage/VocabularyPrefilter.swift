import Foundation
import GRDB

/// Serves infix and other string comparisons of query strings from the full-text index
/// instead of a scan of every item: `textContent == "*mira*"c` first finds the vocabulary
/// terms that contain `mira` (`fts5vocab`), then the items whose column holds one of them.
///
/// A value that matches a pattern contains, folded, each run of word characters of the
/// pattern's literals, and such a run lies inside one word of the value. So the items holding
/// a word that contains the longest run (of at least ``minimumPieceLength`` characters) are a
/// superset of the matches, and `spotlight_match` still decides each of them. Words are
/// compared folded (case and diacritics) whatever the pattern's modifiers, so the superset
/// holds for every modifier; words outside ASCII are folded as the matcher folds values,
/// since SQLite's tokenizer keeps letters such as ø.
///
/// ``SearchQuery`` looks the candidates up once, before its first page, for the comparisons
/// that every result must satisfy (the operands of the top-level `&&`). Measured with
/// `swift run -c release spotlight-bench 20000 200`: `textContent == "*mira*"c` (3,792 of
/// 20,000 items) took 0.54–0.60 s against 0.92–0.96 s with a scan.
///
/// Why not an FTS5 `trigram` table: over all text (50,000 synthetic items, 11.8 MB of text) it
/// took 1.8 times as long to fill as the word table and stored 5.2 bytes per byte of text
/// (the word table 2.9), a cost every index would pay; the vocabulary is already there.
enum VocabularyPrefilter {
    /// The shortest run worth a lookup: shorter ones are in too many words to narrow much.
    static let minimumPieceLength = 3
    /// Beyond this many vocabulary terms, the lookup is given up and the items are scanned.
    static let maxTerms = 2_000

    /// A run every result must contain, and the column it must be in (`nil`: any text column).
    struct Requirement: Sendable, Hashable {
        var column: String?
        var piece: String
    }

    /// The longest folded run of word characters among a pattern's literals, if long enough.
    static func piece(of pattern: StringPattern) -> String? {
        var runs: [String] = []
        var literal = ""
        for element in pattern.elements + [.wildcard] {
            switch element {
            case .literal(let character):
                literal.append(character)
            case .wildcard:
                runs += TextFolding.fold(literal).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
                literal = ""
            }
        }
        guard let longest = runs.max(by: { $0.count < $1.count }), longest.count >= minimumPieceLength else { return nil }
        return longest
    }

    /// The best requirement of a query: from the `==` string comparisons on full-text columns
    /// among the operands of its top-level `&&` whose pattern starts with `*` (infix and suffix
    /// patterns; a value's beginning is already narrowed by a `LIKE` in SQLite's own code), the
    /// one with the longest run.
    static func requirement(of expression: QueryExpression) -> Requirement? {
        var best: Requirement?
        for operand in expression.root.operands(ofAnd: true) {
            guard case .comparison(let attribute, .equal, .string(let pattern), _) = operand,
                pattern.elements.first == .wildcard, !pattern.isPresenceTest, let piece = piece(of: pattern)
            else { continue }
            let column: String?
            if attribute.name == "*" {
                column = nil
            } else if let builtin = AttributeCatalog.lookup(attribute.name), AttributeCatalog.textColumns.contains(builtin.column) {
                column = builtin.column
            } else {
                continue
            }
            if piece.count > best?.piece.count ?? 0 { best = Requirement(column: column, piece: piece) }
        }
        return best
    }

    /// The ids of the items that may satisfy the requirement, in ascending order; `nil` when
    /// more than ``maxTerms`` words contain the run (the items are scanned then).
    static func candidates(for requirement: Requirement, in db: Database) throws -> [Int64]? {
        let piece = requirement.piece
        var terms: [String] = []
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT term, instr(term, ?) > 0 FROM spotlightItemVocabulary
                WHERE instr(term, ?) > 0 OR length(term) <> length(CAST(term AS BLOB))
                """, arguments: [piece, piece])
        while let row = try rows.next() {
            let term: String = row[0]
            if row[1] || TextFolding.fold(term).contains(piece) { terms.append(term) }
            if terms.count > maxTerms { return nil }
        }
        guard !terms.isEmpty else { return [] }
        let alternatives = terms.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        let match = requirement.column.map { "{\($0)} : (\(alternatives))" } ?? alternatives
        return try Int64.fetchAll(
            db, sql: "SELECT rowid FROM spotlightItemFTS WHERE spotlightItemFTS MATCH ? ORDER BY rowid", arguments: [match])
    }
}

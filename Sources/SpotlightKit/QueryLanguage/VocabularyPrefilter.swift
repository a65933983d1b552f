import Foundation
import GRDB

/// Serves string comparisons of the query language from the full-text index instead of a
/// scan of every item: `textContent == "*mira*"c` first finds the vocabulary terms that
/// contain `mira` (`fts5vocab`), then the items whose column holds one of them.
///
/// A value that matches a pattern contains, folded, each run of word characters of the
/// pattern's literals, and such a run lies inside one word of the value. So the items that
/// hold a word containing the longest run (of at least ``minimumPieceLength`` characters) are
/// a superset of the matches; `spotlight_match` still decides each of them. Words are
/// compared folded (case and diacritics), whatever the pattern's modifiers, so the superset
/// holds for every modifier; words outside ASCII are folded like the matcher folds values
/// (`spotlight_folded_contains`), since SQLite's tokenizer keeps letters such as ø.
///
/// Why not an FTS5 `trigram` table: over all text (50,000 synthetic items, 11.8 MB of text) it
/// took 1.8 times as long to fill as the word table and stored 5.2 bytes per byte of text
/// (the word table 2.9), a cost every index would pay for a rare kind of query; the
/// vocabulary is already there.
///
/// ```sql
/// i.id IN (SELECT rowid FROM spotlightItemFTS WHERE spotlightItemFTS MATCH
///          (SELECT '{textContent} : ("admirable" OR "mirabelle")' ...))
/// ```
enum VocabularyPrefilter {
    /// The shortest run worth a lookup: shorter ones are in too many words to narrow much.
    static let minimumPieceLength = 3

    /// The deepest nesting of `&&`/`||` groups at which a comparison uses the lookup: it adds a
    /// few levels of nested SQL, and a comparison deeper down is scanned as before, so every
    /// query the compiler accepts stays within SQLite's parser stack.
    static let maxBooleanDepth = 4

    /// The columns of `spotlightItemFTS`.
    static let fullTextColumns: Set<String> = Set(AttributeCatalog.textColumns)

    /// The longest folded run of word characters among the pattern's literals, if long enough.
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

    /// The condition on `i.id` for a comparison of `column` (such as `i.textContent`), and its
    /// two arguments (the piece, twice); `nil` when the column is not in the full-text index or
    /// the pattern has no run long enough.
    static func condition(column: String, pattern: StringPattern) -> (sql: String, piece: String)? {
        guard column.hasPrefix("i."), !pattern.isPresenceTest else { return nil }
        let name = String(column.dropFirst(2))
        guard fullTextColumns.contains(name), let piece = piece(of: pattern) else { return nil }
        let sql = """
            i.id IN (SELECT rowid FROM spotlightItemFTS WHERE spotlightItemFTS MATCH (
                SELECT coalesce('{\(name)} : (' || group_concat('"' || replace(term, '"', '""') || '"', ' OR ') || ')',
                                '{\(name)} : "' || char(1) || '"')
                FROM spotlightItemVocabulary
                WHERE instr(term, ?) > 0
                   OR (length(term) <> length(CAST(term AS BLOB)) AND spotlight_folded_contains(term, ?))))
            """
        return (sql, piece)
    }

    /// `spotlight_folded_contains(term, piece)`: 1 when the folded term contains the piece.
    static let foldedContains = DatabaseFunction("spotlight_folded_contains", argumentCount: 2, pure: true) { arguments in
        guard let term = String.fromDatabaseValue(arguments[0]), let piece = String.fromDatabaseValue(arguments[1]) else { return 0 }
        return TextFolding.fold(term).contains(piece) ? 1 : 0
    }
}

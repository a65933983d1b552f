import Foundation
import GRDB

/// The SQL functions the compiled queries call, registered on each connection before use.
enum SpotlightFunctions {
    /// `spotlight_match(value, pattern, flags)`: 1 when the value matches the encoded pattern under the modifier flags.
    static let match = DatabaseFunction("spotlight_match", argumentCount: 3, pure: true) { arguments in
        guard let value = String.fromDatabaseValue(arguments[0]),
            let pattern = String.fromDatabaseValue(arguments[1]),
            let flags = Int.fromDatabaseValue(arguments[2])
        else { return 0 }
        return TextMatcher.matches(value, PatternCache.pattern(encoded: pattern, flags: flags)) ? 1 : 0
    }

    /// `spotlight_score(bm25, maxBm25, lastUsedDate, now, selects, focuses, defaults, impressions, rankingHint)`.
    static let score = DatabaseFunction("spotlight_score", argumentCount: 9, pure: true) { arguments in
        let inputs = RankingInputs(arguments: arguments)
        return Ranking.explain(inputs).total
    }

    /// Whether this SQLite was built with its math functions (`pow`).
    static func hasMathFunctions(_ db: Database) -> Bool {
        (try? db.cachedStatement(sql: "SELECT pow(2.0, 1.0)")) != nil
    }

    /// Registers the functions on this connection unless they are already there.
    static func install(in db: Database) {
        if (try? db.cachedStatement(sql: "SELECT spotlight_match(NULL, NULL, NULL), spotlight_score(0, 0, NULL, 0, 0, 0, 0, 0, NULL)")) != nil {
            return
        }
        db.add(function: match)
        db.add(function: score)
    }
}

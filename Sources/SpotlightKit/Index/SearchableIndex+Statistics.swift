import Clockwork
import Foundation
import GRDB

extension SearchableIndex {
    /// The number of unexpired items in each domain of this index; items without a domain
    /// are counted under the empty string.
    ///
    /// ```swift
    /// for (domain, count) in try await index.itemCountsByDomain().sorted(by: { $0.key < $1.key }) {
    ///     print(domain, count)
    /// }
    /// ```
    ///
    /// - Returns: The counts by domain identifier.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func itemCountsByDomain() async throws -> [String: Int] {
        let storage = self.storage
        let now = storage.clock.now().timeIntervalSince1970
        return try await database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(domainIdentifier, '') AS domain, COUNT(*) AS count FROM spotlightItem
                    WHERE indexId = ? AND (expirationDate IS NULL OR expirationDate > ?)
                    GROUP BY COALESCE(domainIdentifier, '')
                    """, arguments: [storage.indexId, now])
            return Dictionary(rows.map { ($0["domain"], $0["count"]) }, uniquingKeysWith: +)
        }
    }

    /// The number of distinct words in the full-text index of the database holding this index
    /// (the vocabulary suggestions are made from); indexes sharing a database share it.
    ///
    /// ```swift
    /// print(try await index.vocabularySize(), "words")
    /// ```
    ///
    /// - Returns: The number of terms.
    /// - Throws: A GRDB `DatabaseError` when the read fails.
    public func vocabularySize() async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightItemVocabulary") ?? 0
        }
    }
}

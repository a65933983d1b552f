import Foundation

/// What ``SearchIndexCatalog/reindex(identifiers:inIndexNamed:)`` found and did.
///
/// ```swift
/// let report = try await catalog.reindex(identifiers: ["x-store://…/book/7", "no-such-id"], inIndexNamed: "library")
/// print(report.reindexed, report.deleted, report.unknown)   // ["x-store://…/book/7"] [] ["no-such-id"]
/// ```
public struct ReindexReport: Sendable, Hashable {
    /// Identifiers whose items were indexed again.
    public var reindexed: [String]
    /// Identifiers whose items were deleted because their data is gone.
    public var deleted: [String]
    /// Identifiers that are no item of the index, before or after: nothing was done for them.
    public var unknown: [String]

    /// Whether at least one identifier was found.
    public var foundAny: Bool { !reindexed.isEmpty || !deleted.isEmpty }
}

extension SearchIndexCatalog {
    /// Asks the app that keeps an index to index these items again, and reports what happened
    /// to each identifier: indexed again, deleted (its data is gone), or unknown.
    ///
    /// ```swift
    /// let report = try await catalog.reindex(identifiers: ids, inIndexNamed: "library")
    /// if !report.foundAny { print("no such items") }
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: Item identifiers, as search results show them; duplicates count once.
    ///   - name: The index.
    /// - Returns: The report, identifiers in the order given.
    /// - Throws: ``SpotlightError/unknownIndex(name:known:)``, ``SpotlightError/indexWithoutMaintainer(name:)``,
    ///   ``SpotlightError/indexDatabaseFailure(name:path:reason:)``, or the maintainer's error.
    public func reindex(identifiers: [String], inIndexNamed name: String) async throws -> ReindexReport {
        guard appIndex(named: name) != nil else {
            if indexNames.contains(name) { throw SpotlightError.indexWithoutMaintainer(name: name) }
            throw SpotlightError.unknownIndex(name: name, known: indexNames)
        }
        return try await explainingDatabaseErrors(of: name) {
            let opened = try await open(name, preparingForSearch: false)
            guard let maintainer = opened.maintainer else { throw SpotlightError.indexWithoutMaintainer(name: name) }
            var seen: Set<String> = []
            let unique = identifiers.filter { seen.insert($0).inserted }
            let before = Set(try await opened.index.fetchItems(withIdentifiers: unique).map(\.uniqueIdentifier))
            try await maintainer.reindex(identifiers: unique)
            let after = Set(try await opened.index.fetchItems(withIdentifiers: unique).map(\.uniqueIdentifier))
            var report = ReindexReport(reindexed: [], deleted: [], unknown: [])
            for identifier in unique {
                if after.contains(identifier) {
                    report.reindexed.append(identifier)
                } else if before.contains(identifier) {
                    report.deleted.append(identifier)
                } else {
                    report.unknown.append(identifier)
                }
            }
            return report
        }
    }
}

import Foundation
import GRDB

/// What keeps an app's searchable index in step with the app's data: a store's
/// ``SpotlightDelegate``, or the app's own code indexing entities with batches and client state.
///
/// The command line and workflows use it to bring an index up to date before searching, and
/// to delete, rebuild and reindex it on request.
///
/// ```swift
/// let maintainer: any IndexMaintainer = try LibrarySpotlightDelegate.shared()
/// try await maintainer.prepareForSearch()
/// let books = try await maintainer.searchableIndex.searchAppEntities("owens", ofType: BookEntity.self)
/// ```
public protocol IndexMaintainer: SearchableIndexDelegate {
    /// The index kept.
    var searchableIndex: SearchableIndex { get }

    /// Brings the index up to date with every change made to the app's data so far, in this
    /// process or another, unless indexing is switched off.
    ///
    /// - Throws: Errors from reading the data or writing the index.
    func prepareForSearch() async throws

    /// Whether indexing is switched off, in this process and every other.
    ///
    /// - Throws: Errors from reading the app's data.
    func isIndexingSwitchedOff() async throws -> Bool

    /// Deletes the index's items and switches indexing off until ``rebuildIndex(progress:)``;
    /// the app's data stays.
    ///
    /// - Throws: Errors from writing the index or the app's data.
    func switchIndexingOff() async throws

    /// Switches indexing on and indexes every item again, reporting progress.
    ///
    /// - Parameters:
    ///   - progress: Called as items are indexed.
    /// - Throws: Errors from reading the data or writing the index.
    func rebuildIndex(progress: @escaping @Sendable (IndexingProgress) -> Void) async throws

    /// The position in the data's change history that the index reflects, when the data has one.
    ///
    /// - Throws: Errors from reading the index.
    func currentHistoryToken() async throws -> Int64?

    /// How many changes to the data the index does not reflect yet, when that is known.
    ///
    /// - Throws: Errors from reading the data.
    func pendingChangeCount() async throws -> Int?
}

extension IndexMaintainer {
    public func currentHistoryToken() async throws -> Int64? { nil }
    public func pendingChangeCount() async throws -> Int? { nil }
}

extension SpotlightDelegate: IndexMaintainer {
    /// Starts indexing unless it is switched off, and waits until every change recorded so far,
    /// by any process, is in the index.
    ///
    /// ```swift
    /// try await delegate.prepareForSearch()
    /// ```
    ///
    /// - Throws: ``SpotlightError/indexingNotRunning(store:)`` when the wait times out, or the indexing error.
    public func prepareForSearch() async throws {
        guard try await startIndexingUnlessSwitchedOff() else { return }
        try await waitUntilIndexed()
    }

    /// The number of recorded store changes after the index's history token.
    ///
    /// ```swift
    /// print(try await delegate.pendingChangeCount() ?? 0, "changes to index")
    /// ```
    ///
    /// - Returns: The count (every recorded change before the first indexing).
    /// - Throws: A GRDB `DatabaseError`.
    public func pendingChangeCount() async throws -> Int? {
        let token = try await currentHistoryToken() ?? 0
        return try await store.read { db in
            guard try db.tableExists("spotlightHistory") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightHistory WHERE id > ?", arguments: [token]) ?? 0
        }
    }
}

import Clockwork
import Foundation
import GRDB

/// How far a rebuild has come.
///
/// ```swift
/// try await delegate.rebuildIndex { progress in
///     print("\(progress.completedCount) of \(progress.totalCount)")
/// }
/// ```
public struct IndexingProgress: Sendable, Hashable {
    /// The items (store rows) done so far.
    public var completedCount: Int
    /// The items (store rows) to do in all.
    public var totalCount: Int

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - completedCount: The items done.
    ///   - totalCount: The items to do.
    public init(completedCount: Int, totalCount: Int) {
        self.completedCount = completedCount
        self.totalCount = totalCount
    }

    /// The part done, from 0 to 1 (1 when there is nothing to do).
    public var fractionCompleted: Double {
        totalCount == 0 ? 1 : min(1, Double(completedCount) / Double(totalCount))
    }
}

/// Switching indexing off and on across launches, and rebuilding with progress.
extension SpotlightDelegate {
    static let switchedOffKey = "indexingSwitchedOff"

    /// Whether indexing was switched off with ``switchIndexingOff()``; recorded in the store, so
    /// every process and later launch sees it.
    ///
    /// ```swift
    /// if try await !delegate.isIndexingSwitchedOff() { try delegate.startIndexing() }
    /// ```
    ///
    /// - Returns: `true` between ``switchIndexingOff()`` and ``rebuildIndex(progress:)``.
    /// - Throws: A GRDB `DatabaseError`.
    public func isIndexingSwitchedOff() async throws -> Bool {
        try await store.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM spotlightStoreMetadata WHERE key = ?",
                arguments: [Self.switchedOffKey]) != nil
        }
    }

    /// Starts indexing unless it was switched off.
    ///
    /// ```swift
    /// try await delegate.startIndexingUnlessSwitchedOff()
    /// ```
    ///
    /// - Returns: Whether indexing runs.
    /// - Throws: ``SpotlightError/invalidStoreConfiguration(store:reason:)`` or a GRDB `DatabaseError`.
    @discardableResult
    public func startIndexingUnlessSwitchedOff() async throws -> Bool {
        if try await isIndexingSwitchedOff() { return false }
        try startIndexing()
        return true
    }

    /// Stops indexing, deletes this store's items from the index, and records that indexing is
    /// off until ``rebuildIndex(progress:)``; the store's data stays.
    ///
    /// ```swift
    /// try await delegate.switchIndexingOff()
    /// ```
    ///
    /// - Throws: A GRDB `DatabaseError` from the index or the store.
    public func switchIndexingOff() async throws {
        try await deleteSpotlightIndex()
        try await writeStore { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO spotlightStoreMetadata (key, value) VALUES (?, 'true')",
                arguments: [Self.switchedOffKey])
        }
    }

    /// Switches indexing on, indexes every row of the store again and starts indexing changes,
    /// reporting progress as rows are indexed.
    ///
    /// The index changes in one transaction: a search sees the old items or the new ones.
    ///
    /// ```swift
    /// try await delegate.rebuildIndex { print($0.completedCount, "of", $0.totalCount) }
    /// ```
    ///
    /// - Parameters:
    ///   - progress: Called after each batch of rows, from a background thread.
    /// - Throws: ``SpotlightError/invalidStoreConfiguration(store:reason:)``, a GRDB
    ///   `DatabaseError`, or an error from ``attributeSet(for:in:)``.
    public func rebuildIndex(progress: @escaping @Sendable (IndexingProgress) -> Void = { _ in }) async throws {
        stopIndexing()
        let entities = self.entities
        let relationships = self.relationships
        let store = self.storeIdentifier
        // Record changes from now on, so none made during the rebuild is lost.
        try await self.writeStore { db in
            try db.execute(sql: "DELETE FROM spotlightStoreMetadata WHERE key = ?", arguments: [Self.switchedOffKey])
            try HistoryTracking.validate(entities: entities, relationships: relationships, store: store, in: db)
            try HistoryTracking.installTriggers(entities: entities, relationships: relationships, in: db)
        }
        let token: Int64
        if sameDatabase {
            token = try await self.writeStore { db in try self.rebuild(reading: db, writing: db, progress: progress) }
        } else {
            token = try await indexDatabase.write { indexDB in
                try self.store.read { storeDB in try self.rebuild(reading: storeDB, writing: indexDB, progress: progress) }
            }
        }
        publish(IndexUpdate(storeIdentifier: storeIdentifier, historyToken: token))
        try startIndexing()
    }

    /// Replaces this store's items with items for every row, in the caller's transactions.
    private func rebuild(
        reading storeDB: Database, writing indexDB: Database,
        progress: @Sendable (IndexingProgress) -> Void
    ) throws -> Int64 {
        let storage = searchableIndex.storage
        let token = try HistoryTracking.latestChangeID(in: storeDB)
        var total = 0
        for entity in entities {
            total += try Int.fetchOne(storeDB, sql: "SELECT COUNT(*) FROM \(HistoryTracking.quoted(entity.table))") ?? 0
        }
        try storage.delete(identifierPrefix: StoreObjectID.prefix(storeIdentifier: storeIdentifier), in: indexDB)
        let domain = domainIdentifier()
        var done = 0
        var pending: [SearchableItem] = []
        func flush() throws {
            try storage.apply([.index(pending)], in: indexDB)
            pending.removeAll(keepingCapacity: true)
            progress(IndexingProgress(completedCount: done, totalCount: total))
        }
        progress(IndexingProgress(completedCount: 0, totalCount: total))
        for entity in entities {
            let rows = try Row.fetchCursor(storeDB, sql: "SELECT rowid AS spotlightRowID, * FROM \(HistoryTracking.quoted(entity.table))")
            while let row = try rows.next() {
                let rowID: Int64 = row["spotlightRowID"]
                let identifier = StoreObjectID(storeIdentifier: storeIdentifier, table: entity.table, rowID: rowID).uniqueIdentifier
                let object = StoreObject(table: entity.table, rowID: rowID, row: row.copy(), uniqueIdentifier: identifier)
                if let attributes = try attributeSet(for: object, in: storeDB) {
                    pending.append(SearchableItem(uniqueIdentifier: identifier, domainIdentifier: domain, attributeSet: attributes))
                }
                done += 1
                if done % batchSize == 0 { try flush() }
            }
        }
        if !pending.isEmpty || done % batchSize != 0 { try flush() }
        try Self.setToken(token, storeIdentifier: storeIdentifier, indexName: storage.name, at: clock.now(), in: indexDB)
        return token
    }
}

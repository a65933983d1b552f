import Clockwork
import Foundation
import GRDB

/// The work of the background indexing: turning history entries into index writes.
extension SpotlightDelegate {
    /// What one step of indexing writes to the index.
    struct IndexWork: Sendable {
        var items: [SearchableItem] = []
        var deletions: [String] = []
        var lastChangeID: Int64
        var replaceAll = false
        var isEmpty: Bool { items.isEmpty && deletions.isEmpty && !replaceAll }
    }

    static func token(storeIdentifier: String, indexName: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT historyToken FROM spotlightIndexerState WHERE storeIdentifier = ? AND indexName = ?
                """, arguments: [storeIdentifier, indexName])
    }

    static func setToken(_ token: Int64, storeIdentifier: String, indexName: String, at now: Date, in db: Database) throws {
        let record = IndexerStateRecord(
            storeIdentifier: storeIdentifier, indexName: indexName, historyToken: token,
            updatedAt: now.timeIntervalSince1970)
        try db.execute(
            sql: """
                INSERT INTO spotlightIndexerState (storeIdentifier, indexName, historyToken, updatedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (storeIdentifier, indexName) DO UPDATE SET historyToken = excluded.historyToken, updatedAt = excluded.updatedAt
                """, arguments: [record.storeIdentifier, record.indexName, record.historyToken, record.updatedAt])
    }

    /// One turn of the background loop: index a batch, or wait for a change or the poll
    /// interval (by the delegate's clock).
    ///
    /// A change signalled while the batch was being indexed ends the wait at once. Each turn
    /// signals ``progress`` before it waits, so that ``waitUntilIndexed(timeout:)`` looks at
    /// the index again after every turn, whoever moved it on.
    func runOnce() async {
        let seen = wakeUp.generation
        do {
            let processed = try await processNextBatch()
            state.withLock { $0.lastError = nil }
            progress.signal()
            if processed { return }
        } catch is CancellationError {
            progress.signal()
            return
        } catch {
            state.withLock { $0.lastError = error }
            progress.signal()
        }
        _ = await wakeUp.wait(past: seen, until: clock.now().adding(pollInterval), clock: clock)
    }

    /// Indexes the next batch of history; the first run indexes every row. Returns whether anything was done.
    func processNextBatch() async throws -> Bool {
        let storage = searchableIndex.storage
        let storeIdentifier = self.storeIdentifier
        if sameDatabase {
            let update: IndexUpdate? = try await writeStore { db in
                let token = try Self.token(storeIdentifier: storeIdentifier, indexName: storage.name, in: db)
                let work = try self.collectWork(after: token, in: db)
                guard let work else { return nil }
                try self.commit(work, storage: storage, in: db)
                try db.execute(sql: "DELETE FROM spotlightHistory WHERE id <= ?", arguments: [work.lastChangeID])
                return IndexUpdate(storeIdentifier: storeIdentifier, historyToken: work.lastChangeID)
            }
            guard let update else { return false }
            publish(update)
            return true
        }
        let token = try await indexDatabase.read { db in
            try Self.token(storeIdentifier: storeIdentifier, indexName: storage.name, in: db)
        }
        let work = try await store.read { db in try self.collectWork(after: token, in: db) }
        guard let work else { return false }
        let committed = try await indexDatabase.write { db -> Bool in
            // Another indexer may have advanced meanwhile; only commit on the token we read.
            guard try Self.token(storeIdentifier: storeIdentifier, indexName: storage.name, in: db) == token else { return false }
            try self.commit(work, storage: storage, in: db)
            return true
        }
        // Pruning history that another indexer has not consumed would lose those changes.
        guard committed else { return true }
        try await writeStore { db in
            try db.execute(sql: "DELETE FROM spotlightHistory WHERE id <= ?", arguments: [work.lastChangeID])
        }
        publish(IndexUpdate(storeIdentifier: storeIdentifier, historyToken: work.lastChangeID))
        return true
    }

    /// Writes items, deletions and the new token in the caller's transaction.
    private func commit(_ work: IndexWork, storage: IndexStorage, in db: Database) throws {
        if work.replaceAll {
            try storage.delete(identifierPrefix: StoreObjectID.prefix(storeIdentifier: storeIdentifier), in: db)
        }
        try storage.apply([.deleteIdentifiers(work.deletions), .index(work.items)], in: db)
        try Self.setToken(
            work.lastChangeID, storeIdentifier: storeIdentifier, indexName: storage.name, at: clock.now(), in: db)
    }

    /// The work for history entries after `token`, or every row when there is no token; `nil` when up to date.
    private func collectWork(after token: Int64?, in db: Database) throws -> IndexWork? {
        guard let token else {
            var work = try everything(in: db)
            work.replaceAll = true
            return work
        }
        let changes = try HistoryTracking.Change.fetchAll(
            db,
            sql: """
                SELECT id, tableName, rowID, operation FROM spotlightHistory WHERE id > ? ORDER BY id LIMIT ?
                """, arguments: [token, batchSize])
        guard let last = changes.last else { return nil }
        var seen: Set<String> = []
        var objects: [(String, Int64)] = []
        for change in changes.reversed() {
            let key = "\(change.tableName)/\(change.rowID)"
            if seen.insert(key).inserted { objects.append((change.tableName, change.rowID)) }
        }
        var work = try self.work(for: objects.reversed(), in: db)
        work.lastChangeID = last.id
        return work
    }

    /// Items for the given rows as they are now: missing rows become deletions.
    private func work(for objects: [(String, Int64)], in db: Database) throws -> IndexWork {
        var work = IndexWork(lastChangeID: 0)
        let domain = domainIdentifier()
        for (table, rowID) in objects {
            guard entities.contains(where: { $0.table == table }) else { continue }
            let identifier = StoreObjectID(storeIdentifier: storeIdentifier, table: table, rowID: rowID).uniqueIdentifier
            let row = try Row.fetchOne(db, sql: "SELECT * FROM \(HistoryTracking.quoted(table)) WHERE rowid = ?", arguments: [rowID])
            if let row, let item = try item(table: table, rowID: rowID, row: row, identifier: identifier, domain: domain, in: db) {
                work.items.append(item)
            } else {
                work.deletions.append(identifier)
            }
        }
        return work
    }

    private func item(table: String, rowID: Int64, row: Row, identifier: String, domain: String, in db: Database) throws -> SearchableItem? {
        let object = StoreObject(table: table, rowID: rowID, row: row, uniqueIdentifier: identifier)
        guard let attributes = try attributeSet(for: object, in: db) else { return nil }
        return SearchableItem(uniqueIdentifier: identifier, domainIdentifier: domain, attributeSet: attributes)
    }

    /// Items for every row of every entity, with the history position they reflect.
    private func everything(in db: Database) throws -> IndexWork {
        var work = IndexWork(lastChangeID: try HistoryTracking.latestChangeID(in: db))
        let domain = domainIdentifier()
        for entity in entities {
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid AS spotlightRowID, * FROM \(HistoryTracking.quoted(entity.table))")
            while let row = try rows.next() {
                let rowID: Int64 = row["spotlightRowID"]
                let identifier = StoreObjectID(storeIdentifier: storeIdentifier, table: entity.table, rowID: rowID).uniqueIdentifier
                if let item = try item(table: entity.table, rowID: rowID, row: row.copy(), identifier: identifier, domain: domain, in: db) {
                    work.items.append(item)
                }
            }
        }
        return work
    }

    /// Rebuilds every item of this store in one index transaction.
    func indexEverything() async throws {
        let storage = searchableIndex.storage
        if sameDatabase {
            let update: IndexUpdate = try await writeStore { db in
                var work = try self.everything(in: db)
                work.replaceAll = true
                try self.commit(work, storage: storage, in: db)
                return IndexUpdate(storeIdentifier: self.storeIdentifier, historyToken: work.lastChangeID)
            }
            publish(update)
            return
        }
        var work = try await store.read { db in try self.everything(in: db) }
        work.replaceAll = true
        let finished = work
        try await indexDatabase.write { db in try self.commit(finished, storage: storage, in: db) }
        publish(IndexUpdate(storeIdentifier: storeIdentifier, historyToken: work.lastChangeID))
    }

    /// Re-indexes specific rows without moving the history token.
    func reindex(objects: [(String, Int64)]) async throws {
        let storage = searchableIndex.storage
        let work = try await store.read { db in try self.work(for: objects, in: db) }
        try await indexDatabase.write { db in
            try storage.apply([.deleteIdentifiers(work.deletions), .index(work.items)], in: db)
        }
    }
}

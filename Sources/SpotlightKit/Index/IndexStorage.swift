import Clockwork
import Foundation
import GRDB

/// A change to apply to an index, as recorded during a batch.
enum IndexOperation: Sendable {
    case index([SearchableItem])
    case deleteIdentifiers([String])
    case deleteDomains([String])
    case deleteAll
}

/// Synchronous reads and writes of one named index, usable inside any transaction.
struct IndexStorage: Sendable {
    let writer: any DatabaseWriter
    let name: String
    let indexId: Int64
    /// The clock that dates items, engagement and expiry, and that "now" in queries reads.
    let clock: any EngineClock

    /// Opens (creating if needed) the named index in `writer`, migrating the schema first.
    static func open(name: String, writer: any DatabaseWriter, clock: any EngineClock) throws -> IndexStorage {
        try IndexDatabase.migrate(IndexSchema.migrator, writer, clock: clock)
        // A read first: opening an existing index needs no write access.
        if let id = try writer.read({ db in try indexId(named: name, in: db, create: false, now: clock.now()) }) {
            return IndexStorage(writer: writer, name: name, indexId: id, clock: clock)
        }
        let id = try writer.write { db -> Int64 in
            try indexId(named: name, in: db, create: true, now: clock.now())!
        }
        return IndexStorage(writer: writer, name: name, indexId: id, clock: clock)
    }

    static func indexId(named name: String, in db: Database, create: Bool, now: Date) throws -> Int64? {
        if let existing = try IndexRecord.filter(Column("name") == name).fetchOne(db) {
            return existing.id
        }
        guard create else { return nil }
        var record = IndexRecord(id: nil, name: name, clientState: nil, createdAt: now.timeIntervalSince1970)
        try record.insert(db)
        return record.id
    }

    // MARK: Writing

    /// Applies operations in order, purging expired items first; items are dated `now`, by
    /// default the storage's clock's time.
    func apply(_ operations: [IndexOperation], in db: Database, now: Date? = nil) throws {
        let now = now ?? clock.now()
        try purgeExpired(in: db, now: now)
        for operation in operations {
            switch operation {
            case .index(let items): try write(items, in: db, now: now)
            case .deleteIdentifiers(let identifiers): try delete(identifiers: identifiers, in: db)
            case .deleteDomains(let domains): try delete(domains: domains, in: db)
            case .deleteAll: try db.execute(sql: "DELETE FROM spotlightItem WHERE indexId = ?", arguments: [indexId])
            }
        }
    }

    @discardableResult
    func purgeExpired(in db: Database, now: Date) throws -> Int {
        try db.execute(
            sql: "DELETE FROM spotlightItem WHERE expirationDate IS NOT NULL AND expirationDate <= ?",
            arguments: [now.timeIntervalSince1970])
        return db.changesCount
    }

    private static let insertSQL = """
        INSERT INTO spotlightItem (
            indexId, uniqueIdentifier, domainIdentifier, title, displayName, textContent, contentDescription,
            keywords, contentType, contentTypeTree, contentURL, thumbnailData, relatedUniqueIdentifier,
            lastUsedDate, rankingHint, expirationDate, indexedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private static let updateSQL = """
        UPDATE spotlightItem SET
            domainIdentifier = ?, title = ?, displayName = ?, textContent = ?, contentDescription = ?,
            keywords = ?, contentType = ?, contentTypeTree = ?, contentURL = ?, thumbnailData = ?,
            relatedUniqueIdentifier = ?, lastUsedDate = ?, rankingHint = ?, expirationDate = ?, indexedAt = ?
        WHERE id = ?
        """

    private static let existingSQL = """
        SELECT id, title, displayName, keywords, textContent, contentDescription
        FROM spotlightItem WHERE indexId = ? AND uniqueIdentifier = ?
        """

    private static let ftsInsertSQL = """
        INSERT INTO spotlightItemFTS (rowid, title, displayName, keywords, textContent, contentDescription)
        VALUES (?, ?, ?, ?, ?, ?)
        """

    private static let ftsDeleteSQL = """
        INSERT INTO spotlightItemFTS (spotlightItemFTS, rowid, title, displayName, keywords, textContent, contentDescription)
        VALUES ('delete', ?, ?, ?, ?, ?, ?)
        """

    /// Writes items: replacements as a whole, updates (`isUpdate`) merged into existing items only.
    ///
    /// Each item costs a lookup, one write of its row and one of its full-text
    /// entry; no statement needs a statement journal, so FTS5 keeps its
    /// pending terms in memory until the transaction commits.
    func write(_ items: [SearchableItem], in db: Database, now: Date) throws {
        let existing = try db.cachedStatement(sql: Self.existingSQL)
        let insert = try db.cachedStatement(sql: Self.insertSQL)
        let update = try db.cachedStatement(sql: Self.updateSQL)
        let ftsInsert = try db.cachedStatement(sql: Self.ftsInsertSQL)
        let ftsDelete = try db.cachedStatement(sql: Self.ftsDeleteSQL)
        let clearCustom = try db.cachedStatement(sql: "DELETE FROM spotlightCustomAttribute WHERE itemId = ?")
        for var item in items {
            if let expiration = item.expirationDate, expiration <= now { continue }
            let stored = try Row.fetchOne(existing, arguments: [indexId, item.uniqueIdentifier])
            var customKeysToReplace: Set<String>? = nil
            if item.isUpdate {
                guard stored != nil, let merged = try mergedUpdate(item, in: db) else { continue }
                customKeysToReplace = item.attributeSet.assignedCustomKeys
                item = merged
            }
            let attributes = item.attributeSet
            let keywords = ItemRecord.join(attributes.keywords)
            let text: [String?] = [attributes.title, attributes.displayName, keywords, attributes.textContent, attributes.contentDescription]
            let columns: [(any DatabaseValueConvertible)?] = [
                item.domainIdentifier, attributes.title, attributes.displayName, attributes.textContent,
                attributes.contentDescription, keywords, attributes.contentType, ItemRecord.join(attributes.contentTypeTree),
                attributes.contentURL?.absoluteString, attributes.thumbnailData, attributes.relatedUniqueIdentifier,
                attributes.lastUsedDate?.timeIntervalSince1970, attributes.rankingHint.map { min(100, max(0, $0)) },
                item.expirationDate?.timeIntervalSince1970, now.timeIntervalSince1970
            ]
            let itemId: Int64
            if let stored {
                itemId = stored["id"]
                try update.execute(arguments: StatementArguments(columns + [itemId]))
                let oldText: [String?] = [
                    stored["title"], stored["displayName"], stored["keywords"], stored["textContent"], stored["contentDescription"]
                ]
                if oldText != text {
                    try ftsDelete.execute(arguments: StatementArguments([itemId] + oldText))
                    try ftsInsert.execute(arguments: StatementArguments([itemId] + text))
                    try CJKBigramIndex.replace(itemId: itemId, text: text, in: db)
                }
            } else {
                let values: [(any DatabaseValueConvertible)?] = [indexId, item.uniqueIdentifier]
                try insert.execute(arguments: StatementArguments(values + columns))
                itemId = db.lastInsertedRowID
                try ftsInsert.execute(arguments: StatementArguments([itemId] + text))
                try CJKBigramIndex.index(itemId: itemId, text: text, in: db)
            }
            if let keys = customKeysToReplace {
                for key in keys {
                    try db.execute(sql: "DELETE FROM spotlightCustomAttribute WHERE itemId = ? AND key = ?", arguments: [itemId, key])
                    if let value = attributes[customKey: key] {
                        try insertCustom(key: key, value: value, itemId: itemId, in: db)
                    }
                }
            } else {
                if stored != nil { try clearCustom.execute(arguments: [itemId]) }
                for (key, value) in attributes.customAttributes {
                    try insertCustom(key: key, value: value, itemId: itemId, in: db)
                }
            }
        }
    }

    /// The stored item with the update's assigned attributes applied, or `nil` when there is no stored item.
    private func mergedUpdate(_ update: SearchableItem, in db: Database) throws -> SearchableItem? {
        guard
            let record =
                try ItemRecord
                .filter(Column("indexId") == indexId && Column("uniqueIdentifier") == update.uniqueIdentifier)
                .fetchOne(db)
        else { return nil }
        var stored = try Self.item(from: record, attributes: nil, in: db)
        stored.attributeSet.apply(update: update.attributeSet)
        if let domain = update.domainIdentifier { stored.domainIdentifier = domain }
        if let expiration = update.expirationDate { stored.expirationDate = expiration }
        stored.isUpdate = false
        return stored
    }

    private func insertCustom(key: String, value: CustomAttributeValue, itemId: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO spotlightCustomAttribute (itemId, key, ordinal, kind, textValue, numberValue) VALUES (?, ?, ?, ?, ?, ?)
                """)
        switch value {
        case .string(let text):
            try statement.execute(arguments: [itemId, key, 0, "string", text, nil])
        case .strings(let texts):
            for (ordinal, text) in texts.enumerated() {
                try statement.execute(arguments: [itemId, key, ordinal, "string", text, nil])
            }
        case .number(let number):
            try statement.execute(arguments: [itemId, key, 0, "number", nil, number])
        case .date(let date):
            try statement.execute(arguments: [itemId, key, 0, "date", nil, date.timeIntervalSince1970])
        }
    }

    /// Deletes items by identifier in one statement (the identifiers travel as one bound JSON array).
    func delete(identifiers: [String], in db: Database) throws {
        guard !identifiers.isEmpty else { return }
        let list = String(decoding: try JSONEncoder().encode(identifiers), as: UTF8.self)
        try db.execute(
            sql: """
                DELETE FROM spotlightItem WHERE indexId = ? AND uniqueIdentifier IN (SELECT value FROM json_each(?))
                """, arguments: [indexId, list])
    }

    /// Deletes the domains and every domain below them: `a.b` also removes `a.b.c`, never `a.bc`.
    func delete(domains: [String], in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                DELETE FROM spotlightItem
                WHERE indexId = ? AND (domainIdentifier = ? OR (domainIdentifier >= ? AND domainIdentifier < ?))
                """)
        for domain in domains {
            try statement.execute(arguments: [indexId, domain, domain + ".", domain + "/"])
        }
    }

    /// Deletes items whose identifier starts with `prefix`.
    func delete(identifierPrefix prefix: String, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM spotlightItem WHERE indexId = ? AND uniqueIdentifier >= ? AND uniqueIdentifier < ?",
            arguments: [indexId, prefix, prefix + "\u{10FFFF}"])
    }

    // MARK: Client state

    func clientState(in db: Database) throws -> Data? {
        try Data?.fetchOne(db, sql: "SELECT clientState FROM spotlightIndex WHERE id = ?", arguments: [indexId]) ?? nil
    }

    func setClientState(_ state: Data, in db: Database) throws {
        try db.execute(sql: "UPDATE spotlightIndex SET clientState = ? WHERE id = ?", arguments: [state, indexId])
    }

    // MARK: Reading

    /// Rebuilds a searchable item from its row; `attributes` limits what is filled in (`nil` means all).
    static func item(from record: ItemRecord, attributes: Set<String>?, in db: Database) throws -> SearchableItem {
        func wants(_ name: String) -> Bool { attributes?.contains(name) ?? true }
        var set = SearchableItemAttributeSet()
        if wants("title") { set.title = record.title }
        if wants("displayName") { set.displayName = record.displayName }
        if wants("textContent") { set.textContent = record.textContent }
        if wants("contentDescription") { set.contentDescription = record.contentDescription }
        if wants("keywords") { set.keywords = ItemRecord.split(record.keywords) }
        if wants("contentType") { set.contentType = record.contentType }
        if wants("contentURL") { set.contentURL = record.contentURL.flatMap(URL.init(string:)) }
        if wants("thumbnailData") { set.thumbnailData = record.thumbnailData }
        if wants("relatedUniqueIdentifier") { set.relatedUniqueIdentifier = record.relatedUniqueIdentifier }
        if wants("lastUsedDate") { set.lastUsedDate = record.lastUsedDate.map(Date.init(timeIntervalSince1970:)) }
        if wants("rankingHint") { set.rankingHint = record.rankingHint }
        let builtinNames = Set(SearchableItemAttributeSet.Attribute.allCases.map(\.rawValue))
        let customWanted = attributes.map { $0.subtracting(builtinNames) } ?? nil
        if customWanted == nil || !(customWanted!.isEmpty), let itemId = record.id {
            let rows =
                try CustomAttributeRecord
                .filter(Column("itemId") == itemId)
                .order(Column("key"), Column("ordinal"))
                .fetchAll(db)
            var grouped: [String: [CustomAttributeRecord]] = [:]
            for row in rows where customWanted?.contains(row.key) ?? true {
                grouped[row.key, default: []].append(row)
            }
            for (key, values) in grouped {
                set[customKey: key] = customValue(values)
            }
        }
        set.clearAssignments()
        return SearchableItem(
            uniqueIdentifier: record.uniqueIdentifier,
            domainIdentifier: record.domainIdentifier,
            attributeSet: set,
            expirationDate: record.expirationDate.map(Date.init(timeIntervalSince1970:)))
    }

    private static func customValue(_ rows: [CustomAttributeRecord]) -> CustomAttributeValue? {
        guard let first = rows.first else { return nil }
        switch first.kind {
        case "number": return first.numberValue.map(CustomAttributeValue.number)
        case "date": return first.numberValue.map { .date(Date(timeIntervalSince1970: $0)) }
        default:
            let texts = rows.compactMap(\.textValue)
            return texts.count == 1 ? .string(texts[0]) : .strings(texts)
        }
    }

    func fetchItems(identifiers: [String], in db: Database, now: Date) throws -> [SearchableItem] {
        let records =
            try ItemRecord
            .filter(Column("indexId") == indexId && identifiers.contains(Column("uniqueIdentifier")))
            .filter(Column("expirationDate") == nil || Column("expirationDate") > now.timeIntervalSince1970)
            .fetchAll(db)
        let byIdentifier = Dictionary(records.map { ($0.uniqueIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        return try identifiers.compactMap { identifier in
            try byIdentifier[identifier].map { try Self.item(from: $0, attributes: nil, in: db) }
        }
    }

    func count(in db: Database, now: Date) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM spotlightItem WHERE indexId = ? AND (expirationDate IS NULL OR expirationDate > ?)
                """, arguments: [indexId, now.timeIntervalSince1970]) ?? 0
    }
}

import Foundation
import GRDB

/// Persistent history in the app's store: a table that SQL triggers fill on
/// every insert, update and delete of the tracked tables, whichever connection
/// or process writes, including multi-row statements.
enum HistoryTracking {
    static let triggerPrefix = "spotlightHistory_"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("SpotlightKit.store.v1.history") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightHistory (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        tableName TEXT NOT NULL,
                        rowID INTEGER NOT NULL,
                        operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
                        recordedAt REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
                    );
                    CREATE TABLE spotlightStoreMetadata (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }

    /// A history row.
    struct Change: Codable, Sendable, FetchableRecord {
        var id: Int64
        var tableName: String
        var rowID: Int64
        var operation: String
    }

    /// The store's identifier, if it has one yet.
    static func existingStoreIdentifier(in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM spotlightStoreMetadata WHERE key = 'storeIdentifier'")
    }

    /// The store's identifier, created on first use.
    static func storeIdentifier(in db: Database) throws -> String {
        if let existing = try existingStoreIdentifier(in: db) {
            return existing
        }
        let identifier = UUID().uuidString
        try db.execute(sql: "INSERT INTO spotlightStoreMetadata (key, value) VALUES ('storeIdentifier', ?)", arguments: [identifier])
        return identifier
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Checks that the configured tables and columns exist and are rowid tables.
    static func validate(entities: [SpotlightEntity], relationships: [SpotlightRelationship], store: String, in db: Database) throws {
        func requireTable(_ table: String) throws -> Set<String> {
            guard try db.tableExists(table) else {
                throw SpotlightError.invalidStoreConfiguration(store: store, reason: "the table '\(table)' does not exist")
            }
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? ""
            if sql.uppercased().replacingOccurrences(of: " ", with: "").hasSuffix("WITHOUTROWID") {
                throw SpotlightError.invalidStoreConfiguration(
                    store: store, reason: "the table '\(table)' is a WITHOUT ROWID table; only rowid tables can be indexed")
            }
            return Set(try db.columns(in: table).map { $0.name.lowercased() })
        }
        func requireColumn(_ column: String, in table: String, columns: Set<String>) throws {
            guard columns.contains(column.lowercased()) else {
                throw SpotlightError.invalidStoreConfiguration(store: store, reason: "the table '\(table)' has no column '\(column)'")
            }
        }
        for entity in entities {
            let columns = try requireTable(entity.table)
            for column in entity.indexedColumns + (entity.displayNameColumn.map { [$0] } ?? []) {
                try requireColumn(column, in: entity.table, columns: columns)
            }
        }
        for relationship in relationships {
            let columns = try requireTable(relationship.table)
            _ = try requireTable(relationship.parent)
            switch relationship.kind {
            case .foreignKey(let column):
                try requireColumn(column, in: relationship.table, columns: columns)
            case .joinTable(let joinTable, let joinColumn, let parentColumn):
                let joinColumns = try requireTable(joinTable)
                try requireColumn(joinColumn, in: joinTable, columns: joinColumns)
                try requireColumn(parentColumn, in: joinTable, columns: joinColumns)
            }
        }
    }

    /// Replaces the history triggers with ones for this configuration.
    static func installTriggers(entities: [SpotlightEntity], relationships: [SpotlightRelationship], in db: Database) throws {
        try removeTriggers(in: db)
        for statement in triggerStatements(entities: entities, relationships: relationships) {
            try db.execute(sql: statement)
        }
    }

    /// Whether the store holds exactly the history triggers of this configuration.
    static func triggersAreInstalled(entities: [SpotlightEntity], relationships: [SpotlightRelationship], in db: Database) throws -> Bool {
        let installed = try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?
                """, arguments: [triggerPrefix.count, triggerPrefix])
        return installed.sorted() == triggerStatements(entities: entities, relationships: relationships).sorted()
    }

    /// The `CREATE TRIGGER` statements of a configuration, as SQLite stores them.
    static func triggerStatements(entities: [SpotlightEntity], relationships: [SpotlightRelationship]) -> [String] {
        var statements: [String] = []
        func record(_ table: String, _ rowExpression: String, _ operation: String, where condition: String? = nil) -> String {
            let filter = condition.map { " WHERE \($0)" } ?? ""
            return "INSERT INTO spotlightHistory (tableName, rowID, operation) SELECT \(literal(table)), \(rowExpression), '\(operation)'\(filter);"
        }
        for (number, entity) in entities.enumerated() {
            let table = quoted(entity.table)
            let name = { (suffix: String) in quoted("\(triggerPrefix)e\(number)_\(suffix)") }
            statements.append("CREATE TRIGGER \(name("insert")) AFTER INSERT ON \(table) BEGIN \(record(entity.table, "NEW.rowid", "insert")) END")
            statements.append(
                """
                CREATE TRIGGER \(name("update")) AFTER UPDATE ON \(table) BEGIN
                \(record(entity.table, "OLD.rowid", "delete", where: "OLD.rowid <> NEW.rowid"))
                \(record(entity.table, "NEW.rowid", "update"))
                END
                """)
            statements.append("CREATE TRIGGER \(name("delete")) AFTER DELETE ON \(table) BEGIN \(record(entity.table, "OLD.rowid", "delete")) END")
        }
        for (number, relationship) in relationships.enumerated() {
            let table = quoted(relationship.table)
            let name = { (suffix: String) in quoted("\(triggerPrefix)r\(number)_\(suffix)") }
            switch relationship.kind {
            case .foreignKey(let column):
                let newValue = "NEW.\(quoted(column))"
                let oldValue = "OLD.\(quoted(column))"
                statements.append(
                    """
                    CREATE TRIGGER \(name("insert")) AFTER INSERT ON \(table) BEGIN
                    \(record(relationship.parent, newValue, "update", where: "\(newValue) IS NOT NULL"))
                    END
                    """)
                statements.append(
                    """
                    CREATE TRIGGER \(name("update")) AFTER UPDATE ON \(table) BEGIN
                    \(record(relationship.parent, oldValue, "update", where: "\(oldValue) IS NOT NULL AND \(oldValue) IS NOT \(newValue)"))
                    \(record(relationship.parent, newValue, "update", where: "\(newValue) IS NOT NULL"))
                    END
                    """)
                statements.append(
                    """
                    CREATE TRIGGER \(name("delete")) AFTER DELETE ON \(table) BEGIN
                    \(record(relationship.parent, oldValue, "update", where: "\(oldValue) IS NOT NULL"))
                    END
                    """)
            case .joinTable(let joinTable, let joinColumn, let parentColumn):
                let select = { (row: String) in
                    "INSERT INTO spotlightHistory (tableName, rowID, operation) SELECT \(literal(relationship.parent)), j.\(quoted(parentColumn)), 'update' FROM \(quoted(joinTable)) j WHERE j.\(quoted(joinColumn)) = \(row).rowid AND j.\(quoted(parentColumn)) IS NOT NULL;"
                }
                statements.append("CREATE TRIGGER \(name("update")) AFTER UPDATE ON \(table) BEGIN \(select("NEW")) END")
                statements.append("CREATE TRIGGER \(name("delete")) BEFORE DELETE ON \(table) BEGIN \(select("OLD")) END")
            }
        }
        return statements
    }

    static func removeTriggers(in db: Database) throws {
        let names = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?
                """, arguments: [triggerPrefix.count, triggerPrefix])
        for name in names {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(quoted(name))")
        }
    }

    static func latestChangeID(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM spotlightHistory") ?? 0
    }
}

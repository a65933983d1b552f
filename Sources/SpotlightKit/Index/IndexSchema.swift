import Foundation
import GRDB

/// The tables of a searchable-index database, created by ordered migrations.
///
/// Migration identifiers are prefixed with `SpotlightKit.` so that they can
/// share a database (and GRDB's migration table) with an app's own schema.
enum IndexSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("SpotlightKit.v1.indexes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightIndex (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        clientState BLOB,
                        createdAt REAL NOT NULL
                    )
                    """)
        }

        migrator.registerMigration("SpotlightKit.v1.items") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightItem (
                        id INTEGER PRIMARY KEY,
                        indexId INTEGER NOT NULL,
                        uniqueIdentifier TEXT NOT NULL,
                        domainIdentifier TEXT,
                        title TEXT,
                        displayName TEXT,
                        textContent TEXT,
                        contentDescription TEXT,
                        keywords TEXT,
                        contentType TEXT,
                        contentTypeTree TEXT,
                        contentURL TEXT,
                        thumbnailData BLOB,
                        relatedUniqueIdentifier TEXT,
                        lastUsedDate REAL,
                        rankingHint INTEGER,
                        expirationDate REAL,
                        indexedAt REAL NOT NULL,
                        UNIQUE (indexId, uniqueIdentifier)
                    );
                    CREATE INDEX spotlightItem_domain ON spotlightItem(indexId, domainIdentifier);
                    CREATE INDEX spotlightItem_expiration ON spotlightItem(expirationDate) WHERE expirationDate IS NOT NULL;
                    """)
        }

        migrator.registerMigration("SpotlightKit.v1.customAttributes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightCustomAttribute (
                        itemId INTEGER NOT NULL,
                        key TEXT NOT NULL,
                        ordinal INTEGER NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('string', 'number', 'date')),
                        textValue TEXT,
                        numberValue REAL,
                        PRIMARY KEY (itemId, key, ordinal)
                    ) WITHOUT ROWID;
                    CREATE INDEX spotlightCustomAttribute_number ON spotlightCustomAttribute(key, numberValue);
                    """)
        }

        migrator.registerMigration("SpotlightKit.v1.engagement") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightEngagement (
                        indexId INTEGER NOT NULL,
                        uniqueIdentifier TEXT NOT NULL,
                        selectCount INTEGER NOT NULL DEFAULT 0,
                        focusCount INTEGER NOT NULL DEFAULT 0,
                        defaultCount INTEGER NOT NULL DEFAULT 0,
                        impressionCount INTEGER NOT NULL DEFAULT 0,
                        lastEngagedAt REAL,
                        PRIMARY KEY (indexId, uniqueIdentifier)
                    ) WITHOUT ROWID
                    """)
        }

        migrator.registerMigration("SpotlightKit.v1.fullText") { db in
            // External-content FTS5 over the text attributes. Inserts and updates
            // write it explicitly (a trigger would open a statement savepoint per
            // row, which makes FTS5 flush its pending terms every time); deletes
            // go through the trigger, which also removes dependent rows.
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE spotlightItemFTS USING fts5(
                        title, displayName, keywords, textContent, contentDescription,
                        content = 'spotlightItem', content_rowid = 'id',
                        tokenize = 'unicode61 remove_diacritics 2',
                        prefix = '2 3 4'
                    );
                    CREATE VIRTUAL TABLE spotlightItemVocabulary USING fts5vocab(spotlightItemFTS, 'row');
                    CREATE TRIGGER spotlightItem_afterDelete AFTER DELETE ON spotlightItem BEGIN
                        INSERT INTO spotlightItemFTS(spotlightItemFTS, rowid, title, displayName, keywords, textContent, contentDescription)
                        VALUES ('delete', old.id, old.title, old.displayName, old.keywords, old.textContent, old.contentDescription);
                        DELETE FROM spotlightCustomAttribute WHERE itemId = old.id;
                        DELETE FROM spotlightEngagement WHERE indexId = old.indexId AND uniqueIdentifier = old.uniqueIdentifier;
                    END;
                    """)
        }

        migrator.registerMigration("SpotlightKit.v1.indexerState") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightIndexerState (
                        storeIdentifier TEXT NOT NULL,
                        indexName TEXT NOT NULL,
                        historyToken INTEGER NOT NULL,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY (storeIdentifier, indexName)
                    ) WITHOUT ROWID
                    """)
        }

        migrator.registerMigration("SpotlightKit.v2.fullTextBuffer") { db in
            // FTS5 gathers new terms in memory and writes them out as a segment
            // whenever the buffer fills, merging segments as they pile up. The
            // default 1 MiB buffer makes bulk indexing spend much of its time
            // writing and re-merging small segments; 16 MiB (a setting stored
            // with the table) writes fewer, larger ones.
            try db.execute(sql: "INSERT INTO spotlightItemFTS (spotlightItemFTS, rank) VALUES ('hashsize', 16777216)")
        }

        migrator.registerMigration("SpotlightKit.v3.cjkBigrams") { db in
            try CJKBigramIndex.create(in: db)
        }
        SemanticSchema.registerMigrations(in: &migrator)

        return migrator
    }
}

import Foundation
import GRDB

/// The tables of semantic search: which indexes embed their items, and each item's vector.
///
/// `spotlightSemanticIndex` holds one row per index with semantic search on: the model whose
/// vectors it keeps and a generation counter that every change to its vectors increases, so that a
/// process holding the vectors in memory knows when to read them again.
///
/// `spotlightItemEmbedding` holds one vector per item: the model that made it, a hash of the text
/// it was made from, the int8 vector with its scale (scanned in memory) and a float16 copy (read
/// for the best candidates of a query to re-rank them exactly). Triggers delete an item's vector
/// when the item is deleted (by any path: identifiers, domains, expiry, a rebuild) or its text
/// changes, which makes it pending again.
enum SemanticSchema {
    static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("SpotlightKit.v3.semanticVectors") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spotlightSemanticIndex (
                        indexId INTEGER PRIMARY KEY,
                        model TEXT,
                        generation INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE spotlightItemEmbedding (
                        itemId INTEGER PRIMARY KEY,
                        indexId INTEGER NOT NULL,
                        model TEXT NOT NULL,
                        textHash INTEGER NOT NULL,
                        scale REAL NOT NULL,
                        quantized BLOB NOT NULL,
                        exact BLOB NOT NULL
                    );
                    CREATE INDEX spotlightItemEmbedding_index ON spotlightItemEmbedding(indexId, model);
                    CREATE TRIGGER spotlightItem_afterDeleteEmbedding AFTER DELETE ON spotlightItem BEGIN
                        DELETE FROM spotlightItemEmbedding WHERE itemId = old.id;
                    END;
                    CREATE TRIGGER spotlightItem_afterTextUpdateEmbedding
                    AFTER UPDATE OF title, displayName, textContent, contentDescription, keywords ON spotlightItem
                    WHEN old.title IS NOT new.title OR old.displayName IS NOT new.displayName
                        OR old.textContent IS NOT new.textContent OR old.contentDescription IS NOT new.contentDescription
                        OR old.keywords IS NOT new.keywords
                    BEGIN
                        DELETE FROM spotlightItemEmbedding WHERE itemId = old.id;
                    END;
                    CREATE TRIGGER spotlightItemEmbedding_afterDelete AFTER DELETE ON spotlightItemEmbedding BEGIN
                        UPDATE spotlightSemanticIndex SET generation = generation + 1 WHERE indexId = old.indexId;
                    END;
                    CREATE TRIGGER spotlightItemEmbedding_afterInsert AFTER INSERT ON spotlightItemEmbedding BEGIN
                        UPDATE spotlightSemanticIndex SET generation = generation + 1 WHERE indexId = new.indexId;
                    END;
                    """)
        }

        // Counts the inserts and text changes of each index with semantic search on, and records
        // the count a complete run of embedding saw, so that a search knows in one read whether
        // anything is pending.
        migrator.registerMigration("SpotlightKit.v3.semanticChanges") { db in
            try db.execute(
                sql: """
                    ALTER TABLE spotlightSemanticIndex ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE spotlightSemanticIndex ADD COLUMN embeddedChanges INTEGER NOT NULL DEFAULT -1;
                    ALTER TABLE spotlightSemanticIndex ADD COLUMN embeddedModel TEXT;
                    CREATE TRIGGER spotlightItem_afterInsertSemantic AFTER INSERT ON spotlightItem BEGIN
                        UPDATE spotlightSemanticIndex SET changes = changes + 1 WHERE indexId = new.indexId;
                    END;
                    CREATE TRIGGER spotlightItem_afterTextUpdateSemantic
                    AFTER UPDATE OF title, displayName, textContent, contentDescription, keywords ON spotlightItem
                    WHEN old.title IS NOT new.title OR old.displayName IS NOT new.displayName
                        OR old.textContent IS NOT new.textContent OR old.contentDescription IS NOT new.contentDescription
                        OR old.keywords IS NOT new.keywords
                    BEGIN
                        UPDATE spotlightSemanticIndex SET changes = changes + 1 WHERE indexId = new.indexId;
                    END;
                    """)
        }
    }
}

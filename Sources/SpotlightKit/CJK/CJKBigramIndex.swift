import Foundation
import GRDB

/// The second full-text table: the CJK text of each item as character pairs, so that
/// Chinese, Japanese and Korean words are found inside runs of text (see ``CJKSegmenter``).
///
/// It has the five text columns of `spotlightItemFTS` (so ranking weighs them alike), one
/// row per item that has CJK text, keyed by the item's id. Rows are written with the item
/// (``index(itemId:text:in:)``, ``replace(itemId:text:in:)``) and deleted by a trigger with it.
///
/// Why pairs and not FTS5's `trigram` tokenizer: a trigram table cannot match a term of fewer
/// than three characters, and most Japanese words written in kanji have two (紅葉, 嵐山,
/// 京都); with pairs they are one token. Only the CJK runs are stored, so an index of
/// English text gains nothing but an empty table.
///
/// ```sql
/// SELECT rowid FROM spotlightItemCJK WHERE spotlightItemCJK MATCH '"紅葉"'
/// ```
enum CJKBigramIndex {
    static let table = "spotlightItemCJK"

    /// Creates the table and its delete trigger, and fills it from the items already stored.
    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE spotlightItemCJK USING fts5(
                    title, displayName, keywords, textContent, contentDescription,
                    tokenize = 'unicode61 remove_diacritics 0'
                );
                CREATE TRIGGER spotlightItem_afterDeleteCJK AFTER DELETE ON spotlightItem BEGIN
                    DELETE FROM spotlightItemCJK WHERE rowid = old.id;
                END;
                """)
        // Only rows with text outside ASCII can hold CJK letters.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, title, displayName, keywords, textContent, contentDescription FROM spotlightItem
                WHERE length(coalesce(title, '') || coalesce(displayName, '') || coalesce(keywords, '')
                             || coalesce(textContent, '') || coalesce(contentDescription, ''))
                   <> length(CAST(coalesce(title, '') || coalesce(displayName, '') || coalesce(keywords, '')
                             || coalesce(textContent, '') || coalesce(contentDescription, '') AS BLOB))
                """)
        var pending: [(Int64, [String?])] = []
        while let row = try rows.next() {
            pending.append((row[0], [row[1], row[2], row[3], row[4], row[5]]))
        }
        for (itemId, text) in pending { try index(itemId: itemId, text: text, in: db) }
    }

    /// Writes the row of a new item; does nothing when its text has no CJK letters.
    ///
    /// - Parameters:
    ///   - itemId: The item's id.
    ///   - text: Title, display name, keywords (joined), text content and description.
    static func index(itemId: Int64, text: [String?], in db: Database) throws {
        let documents = text.map { CJKSegmenter.bigramDocument($0) }
        guard documents.contains(where: { $0 != nil }) else { return }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO spotlightItemCJK (rowid, title, displayName, keywords, textContent, contentDescription)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        try insert.execute(arguments: StatementArguments([itemId] + documents))
    }

    /// Replaces the row of an item whose text changed.
    static func replace(itemId: Int64, text: [String?], in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM spotlightItemCJK WHERE rowid = ?").execute(arguments: [itemId])
        try index(itemId: itemId, text: text, in: db)
    }
}

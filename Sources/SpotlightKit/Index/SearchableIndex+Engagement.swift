import Clockwork
import Foundation
import GRDB

extension SearchableIndex {
    /// Records that the person opened or used an item, to rank it higher in later searches.
    ///
    /// ``UserQuery/userEngaged(_:visibleItems:interaction:)`` records engagement with a result on
    /// screen; this records it where no query object is at hand: an app intent that opens an
    /// item (`Journal.OpenEntry`, `Library.OpenBook`), or a workflow step that opens what a
    /// `search` step found. The engagement shows in the `engagement` part of
    /// ``ScoreExplanation`` (`shortcuts search --explain`).
    ///
    /// ```swift
    /// try await index.recordEngagement(withIdentifier: item.uniqueIdentifier)
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The item's unique identifier; an item not (yet) indexed keeps the engagement for when it is.
    ///   - interaction: What the person did; opening is ``UserQuery/InteractionKind/select``.
    ///   - date: When it happened; the index's ``SearchableIndex/clock``'s time when `nil`.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func recordEngagement(
        withIdentifier identifier: String, interaction: UserQuery.InteractionKind = .select, at date: Date? = nil
    ) async throws {
        let indexId = storage.indexId
        let at = (date ?? storage.clock.now()).timeIntervalSince1970
        try await database.write { db in
            try Engagement.record(
                identifier: identifier, indexId: indexId, interaction: interaction,
                at: at, impressions: [], in: db)
        }
    }

    /// Records that the person opened an app entity: the items associated with it gain engagement.
    ///
    /// The items are those of ``indexAppEntities(_:)`` and any other item associated with the
    /// entity (``SearchableItemAttributeSet/associateAppEntity(_:)``), such as the
    /// items a ``SpotlightDelegate`` makes of a store's rows. When no item is associated yet,
    /// the engagement is kept for the item ``indexAppEntities(_:)`` will make.
    ///
    /// ```swift
    /// try await index.recordEngagement(with: book)
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The entity.
    ///   - interaction: What the person did.
    ///   - date: When it happened; the index's ``SearchableIndex/clock``'s time when `nil`.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func recordEngagement<Entity: IndexedEntity>(
        with entity: Entity, interaction: UserQuery.InteractionKind = .select, at date: Date? = nil
    ) async throws {
        let reference = AppEntityReference(entity)
        let indexId = storage.indexId
        let at = (date ?? storage.clock.now()).timeIntervalSince1970
        try await database.write { db in
            var identifiers = try String.fetchAll(
                db,
                sql: "SELECT uniqueIdentifier FROM spotlightItem WHERE indexId = ? AND uniqueIdentifier = ?",
                arguments: [indexId, reference.uniqueIdentifier])
            if identifiers.isEmpty {
                identifiers = try String.fetchAll(
                    db,
                    sql: """
                        SELECT i.uniqueIdentifier FROM spotlightCustomAttribute entityType
                        JOIN spotlightCustomAttribute entityIdentifier
                          ON entityIdentifier.itemId = entityType.itemId AND entityIdentifier.key = ?
                         AND entityIdentifier.kind = 'string' AND entityIdentifier.textValue = ?
                        JOIN spotlightItem i ON i.id = entityType.itemId
                        WHERE entityType.key = ? AND entityType.kind = 'string' AND entityType.textValue = ? AND i.indexId = ?
                        """,
                    arguments: [
                        AppEntityReference.identifierKey, reference.identifier,
                        AppEntityReference.typeKey, reference.typeIdentifier, indexId
                    ])
            }
            for identifier in identifiers.isEmpty ? [reference.uniqueIdentifier] : identifiers {
                try Engagement.record(
                    identifier: identifier, indexId: indexId, interaction: interaction,
                    at: at, impressions: [], in: db)
            }
        }
    }
}

/// Writes to the engagement table that ranking reads.
enum Engagement {
    /// Adds one interaction with an item and one impression to each other item shown with it.
    static func record(
        identifier: String, indexId: Int64, interaction: UserQuery.InteractionKind, at now: Double,
        impressions: Set<String>, in db: Database
    ) throws {
        let column: String
        switch interaction {
        case .select: column = "selectCount"
        case .focus: column = "focusCount"
        case .default: column = "defaultCount"
        }
        try db.execute(
            sql: """
                INSERT INTO spotlightEngagement (indexId, uniqueIdentifier, \(column), lastEngagedAt) VALUES (?, ?, 1, ?)
                ON CONFLICT (indexId, uniqueIdentifier) DO UPDATE SET \(column) = \(column) + 1, lastEngagedAt = excluded.lastEngagedAt
                """, arguments: [indexId, identifier, now])
        let impression = try db.cachedStatement(
            sql: """
                INSERT INTO spotlightEngagement (indexId, uniqueIdentifier, impressionCount) VALUES (?, ?, 1)
                ON CONFLICT (indexId, uniqueIdentifier) DO UPDATE SET impressionCount = impressionCount + 1
                """)
        for other in impressions where other != identifier {
            try impression.execute(arguments: [indexId, other])
        }
    }
}

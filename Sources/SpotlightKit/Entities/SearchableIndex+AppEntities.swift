import Foundation
import IntentKit

extension SearchableIndex {
    /// Indexes app entities: each becomes the item ``SearchableItem/init(appEntity:expirationDate:)``
    /// makes, replacing the entity's earlier item.
    ///
    /// ```swift
    /// try await index.indexAppEntities([book])
    /// ```
    ///
    /// - Parameters:
    ///   - entities: The entities.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func indexAppEntities<Entity: IndexedEntity>(_ entities: [Entity]) async throws {
        try await indexSearchableItems(entities.map { SearchableItem(appEntity: $0) })
    }

    /// Deletes the items of entities indexed with ``indexAppEntities(_:)``.
    ///
    /// ```swift
    /// try await index.deleteAppEntities(identifiedBy: [book.id], ofType: BookEntity.self)
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The entities' identifiers.
    ///   - type: The entity type.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func deleteAppEntities<Entity: IndexedEntity>(identifiedBy identifiers: [Entity.ID], ofType type: Entity.Type) async throws {
        let items = identifiers.map {
            AppEntityReference(typeIdentifier: Entity.entityTypeIdentifier, identifier: $0.entityIdentifierString).uniqueIdentifier
        }
        try await deleteSearchableItems(withIdentifiers: items)
    }

    /// Deletes every item indexed with ``indexAppEntities(_:)`` for an entity type (its domain).
    ///
    /// ```swift
    /// try await index.deleteAppEntities(ofType: BookEntity.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The entity type.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func deleteAppEntities<Entity: IndexedEntity>(ofType type: Entity.Type) async throws {
        try await deleteSearchableItems(withDomainIdentifiers: [Entity.entityTypeIdentifier])
    }

    /// Searches as a person types and returns the entities of one type found, best first.
    ///
    /// Only items associated with an entity of the type count; each is looked up through the
    /// entity's query (`entities(for:)`), so the entities are current and items of entities
    /// that no longer exist are left out.
    ///
    /// ```swift
    /// let books = try await index.searchAppEntities("owens", ofType: BookEntity.self)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The typed text.
    ///   - type: The entity type.
    ///   - context: The query options; a filter on the entity type is added.
    /// - Returns: The entities, best first.
    /// - Throws: ``SpotlightError`` for a malformed filter, a GRDB `DatabaseError`, or the query's error.
    public func searchAppEntities<Entity: IndexedEntity>(
        _ text: String, ofType type: Entity.Type,
        context: UserQueryContext = UserQueryContext()
    ) async throws -> [Entity] {
        var context = context
        context.filterQueries.append(AppEntityResolver.filterQuery(for: Entity.self))
        context.fetchAttributes.append(contentsOf: AppEntityResolver.referenceAttributes)
        if context.retrieval != .lexical { try await prepareSemanticSearch() }
        var items: [SearchableItem] = []
        for try await response in UserQuery(userQueryString: text, context: context, index: self).responses {
            if case .item(let result) = response { items.append(result.item) }
        }
        return try await AppEntityResolver.entities(for: items, ofType: Entity.self).compactMap { $0 }
    }
}

/// Turns found items back into the app entities they stand for.
///
/// ```swift
/// let books = try await AppEntityResolver.entities(for: items, ofType: BookEntity.self)
/// let any = try await AppEntityResolver.entities(for: items, among: [BookEntity.self, PhotoEntity.self])
/// ```
public enum AppEntityResolver {
    /// The custom attributes to fetch so that found items keep their association.
    public static let referenceAttributes = [AppEntityReference.typeKey, AppEntityReference.identifierKey]

    /// A query-language filter that keeps the items of one entity type.
    ///
    /// ```swift
    /// context.filterQueries.append(AppEntityResolver.filterQuery(for: BookEntity.self))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The entity type.
    /// - Returns: The filter, such as `appEntityType == "BookEntity"`.
    public static func filterQuery(for type: any IndexedEntity.Type) -> String {
        let escaped = type.entityTypeIdentifier.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(AppEntityReference.typeKey) == \"\(escaped)\""
    }

    /// The entities of one type that the items stand for, in item order.
    ///
    /// - Parameters:
    ///   - items: Found items (fetched with ``referenceAttributes``).
    ///   - type: The entity type.
    /// - Returns: One element per item: the entity, or `nil` when the item stands for no
    ///   entity of the type or the entity no longer exists.
    /// - Throws: The entity query's error.
    public static func entities<Entity: IndexedEntity>(for items: [SearchableItem], ofType type: Entity.Type) async throws -> [Entity?] {
        let references = items.map { item -> Entity.ID? in
            guard let reference = item.associatedAppEntity, reference.typeIdentifier == Entity.entityTypeIdentifier else { return nil }
            return Entity.ID.entityIdentifier(for: reference.identifier)
        }
        var wanted: [Entity.ID] = []
        var seen: Set<Entity.ID> = []
        for case let identifier? in references where seen.insert(identifier).inserted { wanted.append(identifier) }
        guard !wanted.isEmpty else { return references.map { _ in nil } }
        let found = try await Entity.defaultQuery.entities(for: wanted)
        let byIdentifier = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return references.map { $0.flatMap { byIdentifier[$0] } }
    }

    /// The entities, of any of the given types, that the items stand for, in item order.
    ///
    /// - Parameters:
    ///   - items: Found items (fetched with ``referenceAttributes``).
    ///   - types: The entity types to look up.
    /// - Returns: One element per item: the entity, or `nil`.
    /// - Throws: The entity queries' errors.
    public static func entities(for items: [SearchableItem], among types: [any IndexedEntity.Type]) async throws -> [(any AppEntity)?] {
        var results: [(any AppEntity)?] = items.map { _ in nil }
        for type in types {
            func resolve<Entity: IndexedEntity>(_ type: Entity.Type) async throws -> [(any AppEntity)?] {
                try await entities(for: items, ofType: type).map { $0 }
            }
            let found = try await resolve(type)
            for (offset, entity) in found.enumerated() where entity != nil { results[offset] = entity }
        }
        return results
    }
}

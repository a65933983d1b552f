import Foundation

/// Finds entities of one type by identifier, and suggests some for pickers.
///
/// ```swift
/// struct BookQuery: EntityQuery {
///     func entities(for identifiers: [UUID]) async throws -> [BookEntity] {
///         identifiers.compactMap { Database.shared.book(for: $0) }
///     }
///     func suggestedEntities() async throws -> [BookEntity] { Database.shared.books }
/// }
/// ```
public protocol EntityQuery: Sendable {
    /// The entity type found.
    associatedtype Entity: AppEntity
    /// Creates the query.
    init()
    /// The entities with these identifiers (missing ones are left out).
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    /// Entities to offer in a picker.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that also finds entities by text, such as a title typed by a person or given in YAML.
///
/// ```swift
/// func entities(matching string: String) async throws -> [BookEntity] {
///     Database.shared.books.filter { $0.title.lowercased().contains(string.lowercased()) }
/// }
/// ```
public protocol EntityStringQuery: EntityQuery {
    /// The entities matching the text.
    func entities(matching string: String) async throws -> [Entity]
}

/// A query for a small, fixed set of entities: it returns them all, and IntentKit filters,
/// sorts and searches them in memory.
///
/// ```swift
/// struct ColorQuery: EnumerableEntityQuery {
///     typealias Entity = ColorEntity   // name the entity: Swift cannot infer it here
///     func allEntities() async throws -> [ColorEntity] { ColorEntity.all }
/// }
/// ```
public protocol EnumerableEntityQuery: EntityQuery {
    /// Every entity.
    func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        let wanted = Set(identifiers)
        return try await allEntities().filter { wanted.contains($0.id) }
    }
}

import Foundation

/// A query that finds entities by their properties, with comparators, sorting and a limit:
/// what `find` steps in workflows run.
///
/// Declare which properties can be compared and how each comparator maps to your storage's
/// own condition type (the *comparator mapping type*), which properties can sort, and run the
/// search in ``entities(matching:mode:sortedBy:limit:)``:
///
/// ```swift
/// struct BookQuery: EntityPropertyQuery {
///     static var properties = QueryProperties {
///         Property(\BookEntity.$title) {
///             EqualToComparator { BookCondition.title(equals: $0) }
///             ContainsComparator { BookCondition.title(contains: $0) }
///         }
///     }
///     static var sortingOptions = SortingOptions { SortableBy(\BookEntity.$title) }
///
///     func entities(matching comparators: [BookCondition], mode: ComparatorMode,
///                   sortedBy: [Sort<BookEntity>], limit: Int?) async throws -> [BookEntity] {
///         try Database.shared.findBooks(comparators, matchAll: mode == .and, sortedBy: sortedBy, limit: limit)
///     }
///     func entities(for identifiers: [UUID]) async throws -> [BookEntity] { ... }
/// }
/// ```
public protocol EntityPropertyQuery: EntityQuery {
    /// Your storage's condition type, made by each comparator.
    associatedtype ComparatorMappingType
    /// The properties that can be compared, and their comparators.
    static var properties: QueryProperties<Entity, ComparatorMappingType> { get }
    /// The properties that can sort results.
    static var sortingOptions: SortingOptions<Entity> { get }
    /// The entities matching the conditions, sorted and limited.
    ///
    /// - Parameters:
    ///   - comparators: One condition per comparison, made by the comparators' closures.
    ///   - mode: Whether all (`.and`) or any (`.or`) of the conditions must hold.
    ///   - sortedBy: The sort order, most significant first.
    ///   - limit: The most entities to return, if set.
    /// - Returns: The matching entities.
    func entities(
        matching comparators: [ComparatorMappingType], mode: ComparatorMode,
        sortedBy: [Sort<Entity>], limit: Int?
    ) async throws -> [Entity]
}

extension EntityPropertyQuery {
    /// Declares a queryable property: `Property(\BookEntity.$title) { EqualToComparator { ... } }`.
    public typealias Property = QueryProperty<Entity, ComparatorMappingType>
    /// Declares a property results can be sorted by: `SortableBy(\BookEntity.$title)`.
    public typealias SortableBy = EntitySortableProperty<Entity>
    /// A sort of query results, as `entities(matching:mode:sortedBy:limit:)` receives it.
    public typealias Sort<SortedEntity: AppEntity> = EntityQuerySort<SortedEntity>
}

/// Whether all or any of a query's conditions must hold.
public enum ComparatorMode: String, Sendable, Hashable {
    case and
    case or
}

/// The direction of a sort.
///
/// Entity queries sort with it, and workflows' `sortBy:` is written with its names
/// (`- datePublished: descending`).
public enum EntityQuerySortOrder: String, Sendable, Hashable, CaseIterable {
    case ascending
    case descending
}

/// A property and direction to sort query results by.
///
/// ```swift
/// sortedBy.map { (keyPath: $0.by, ascending: $0.order == .ascending) }
/// ```
public struct EntityQuerySort<Entity: AppEntity>: @unchecked Sendable {
    /// The direction of a sort.
    public typealias Ordering = EntityQuerySortOrder

    /// The property's key path, such as `\BookEntity.$datePublished`.
    public var by: PartialKeyPath<Entity>
    /// The direction.
    public var order: Ordering

    /// Creates a sort.
    public init(by: PartialKeyPath<Entity>, order: Ordering = .ascending) {
        self.by = by
        self.order = order
    }

    /// The name of the property sorted by (its Swift name, such as `datePublished`).
    public var propertyName: String? {
        EntityReflection.schema(for: Entity.self)?.propertyName(for: by)
    }
}

import Foundation

/// The properties a property query can compare, each with its comparators.
///
/// ```swift
/// static var properties = QueryProperties {
///     Property(\BookEntity.$title) {
///         EqualToComparator { BookCondition.title(equals: $0) }
///         ContainsComparator { BookCondition.title(contains: $0) }
///     }
///     Property(\BookEntity.$datePublished) {
///         LessThanComparator { BookCondition.published(before: $0) }
///     }
/// }
/// ```
public struct QueryProperties<Entity: AppEntity, Mapping>: @unchecked Sendable {
    /// The declared properties, in order.
    public let properties: [QueryProperty<Entity, Mapping>]

    /// Builds the list of properties.
    public init(@QueryPropertiesBuilder<Entity, Mapping> _ content: () -> [QueryProperty<Entity, Mapping>]) {
        properties = content()
    }
}

/// One queryable property and its comparators, written `Property(\Entity.$name) { ... }`
/// inside ``QueryProperties``.
public struct QueryProperty<Entity: AppEntity, Mapping>: @unchecked Sendable {
    /// The property's key path.
    public let keyPath: PartialKeyPath<Entity>
    /// The comparators, in declaration order.
    public let comparators: [AnyQueryComparator<Mapping>]

    /// Declares a property and its comparators.
    public init<Value: IntentValueConvertible>(
        _ keyPath: KeyPath<Entity, EntityProperty<Value>>,
        @QueryComparatorsBuilder<Value, Mapping> _ comparators: () -> [AnyQueryComparator<Mapping>]
    ) {
        self.keyPath = keyPath
        self.comparators = comparators()
    }

    /// Declares an optional property; its comparators receive the unwrapped value.
    public init<Value: IntentValueConvertible>(
        _ keyPath: KeyPath<Entity, EntityProperty<Value?>>,
        @QueryComparatorsBuilder<Value, Mapping> _ comparators: () -> [AnyQueryComparator<Mapping>]
    ) {
        self.keyPath = keyPath
        self.comparators = comparators()
    }

    /// The Swift name of the property, such as `title`.
    public var name: String? {
        EntityReflection.schema(for: Entity.self)?.propertyName(for: keyPath)
    }

    /// The comparator of a kind, if declared.
    public func comparator(_ kind: ComparatorKind) -> AnyQueryComparator<Mapping>? {
        comparators.first { $0.kind == kind }
    }
}

/// Builds the properties of ``QueryProperties``.
@resultBuilder
public enum QueryPropertiesBuilder<Entity: AppEntity, Mapping> {
    public static func buildExpression(_ property: QueryProperty<Entity, Mapping>) -> [QueryProperty<Entity, Mapping>] {
        [property]
    }

    public static func buildBlock(_ parts: [QueryProperty<Entity, Mapping>]...) -> [QueryProperty<Entity, Mapping>] {
        parts.flatMap { $0 }
    }
}

/// Builds the comparators of a queryable property.
@resultBuilder
public enum QueryComparatorsBuilder<Value: IntentValueConvertible, Mapping> {
    public static func buildExpression<Comparator: QueryComparator>(_ comparator: Comparator) -> [AnyQueryComparator<Mapping>]
    where Comparator.Value == Value, Comparator.Mapping == Mapping {
        [comparator.erased]
    }

    public static func buildBlock(_ parts: [AnyQueryComparator<Mapping>]...) -> [AnyQueryComparator<Mapping>] {
        parts.flatMap { $0 }
    }
}

/// The properties query results can be sorted by.
///
/// ```swift
/// static var sortingOptions = SortingOptions {
///     SortableBy(\BookEntity.$title)
///     SortableBy(\BookEntity.$datePublished)
/// }
/// ```
public struct SortingOptions<Entity: AppEntity>: @unchecked Sendable {
    /// The sortable properties, in order.
    public let options: [EntitySortableProperty<Entity>]

    /// Builds the list.
    public init(@SortingOptionsBuilder<Entity> _ content: () -> [EntitySortableProperty<Entity>]) {
        options = content()
    }

    /// The Swift names of the sortable properties.
    public var propertyNames: [String] { options.compactMap(\.name) }
}

/// A property results can be sorted by, written `SortableBy(\Entity.$name)`.
public struct EntitySortableProperty<Entity: AppEntity>: @unchecked Sendable {
    /// The property's key path.
    public let keyPath: PartialKeyPath<Entity>

    /// Declares a sortable property.
    public init<Value: IntentValueConvertible>(_ keyPath: KeyPath<Entity, EntityProperty<Value>>) {
        self.keyPath = keyPath
    }

    /// The Swift name of the property.
    public var name: String? {
        EntityReflection.schema(for: Entity.self)?.propertyName(for: keyPath)
    }
}

/// Builds ``SortingOptions``.
@resultBuilder
public enum SortingOptionsBuilder<Entity: AppEntity> {
    public static func buildExpression(_ option: EntitySortableProperty<Entity>) -> [EntitySortableProperty<Entity>] {
        [option]
    }

    public static func buildBlock(_ parts: [EntitySortableProperty<Entity>]...) -> [EntitySortableProperty<Entity>] {
        parts.flatMap { $0 }
    }
}

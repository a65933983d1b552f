import Foundation
import Synchronization

/// A condition on an entity property, by name: `author equalTo "Delia Owens"`.
public struct PropertyCondition: Sendable, Hashable {
    /// The property's Swift name.
    public var property: String
    /// The comparator.
    public var comparator: ComparatorKind
    /// One operand, or two for `isBetween`.
    public var operands: [IntentValue]

    public init(property: String, comparator: ComparatorKind, operands: [IntentValue]) {
        self.property = property
        self.comparator = comparator
        self.operands = operands
    }
}

/// A sort by an entity property, by name.
public struct PropertySort: Sendable, Hashable {
    /// The property's Swift name.
    public var property: String
    /// The direction.
    public var order: EntityQuerySortOrder

    public init(property: String, order: EntityQuerySortOrder = .ascending) {
        self.property = property
        self.order = order
    }
}

/// What an entity type's queries can do, known without stored data.
public struct EntityQueryCapabilities: Sendable, Hashable {
    /// A property and what can be done with it.
    public struct Property: Sendable, Hashable {
        /// The Swift name.
        public var name: String
        /// The title.
        public var title: String
        /// The type.
        public var type: IntentValueType
        /// The comparators a property query accepts (every one, in memory, for enumerable queries).
        public var comparators: [ComparatorKind]
        /// Whether results can be sorted by it.
        public var isSortable: Bool
    }

    /// The entity's `@Property`s.
    public var properties: [Property]
    /// Whether the query finds entities by properties in storage (`EntityPropertyQuery`).
    public var supportsPropertyQuery: Bool
    /// Whether the query returns every entity (`EnumerableEntityQuery`), so finds run in memory.
    public var isEnumerable: Bool
    /// Whether the query finds entities by text (`EntityStringQuery`).
    public var supportsStringSearch: Bool

    /// Whether `find` steps can search this entity.
    public var isFindable: Bool { supportsPropertyQuery || isEnumerable }
}

/// Runs property queries by name, as `find` steps and the command line do, pushing them down
/// to the entity's ``EntityPropertyQuery`` or filtering an ``EnumerableEntityQuery`` in memory.
///
/// ```swift
/// let books = try await EntityQueries.find(
///     BookEntity.self,
///     conditions: [PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Delia Owens")])],
///     sortedBy: [PropertySort(property: "datePublished", order: .descending)], limit: 3)
/// ```
public enum EntityQueries {
    /// What an entity type's queries can do: a Swift type's default query, or what a hosted
    /// app's metadata declares.
    public static func capabilities(of reference: EntityTypeReference) -> EntityQueryCapabilities {
        switch reference.definition {
        case .swift(let type): capabilities(of: type)
        case .hosted(let hosted): hosted.capabilities
        }
    }

    /// Finds entities of a Swift or hosted entity type by property conditions, sorted and limited.
    ///
    /// A hosted entity type with a property query gets the conditions, sort and limit in one
    /// ``HostedEntityRequest/Query/properties(conditions:mode:sort:limit:)`` request, after they
    /// are checked against the comparators and sorts its metadata declares; an enumerable one
    /// is filtered in memory.
    ///
    /// - Throws: ``EntityQueryError`` for undeclared properties, comparators or sorts,
    ///   ``ValueConversionError`` for operands of the wrong type, and the host's errors.
    public static func find(
        _ reference: EntityTypeReference, conditions: [PropertyCondition], mode: ComparatorMode = .and,
        sortedBy: [PropertySort] = [], limit: Int? = nil
    ) async throws -> [IntentValue] {
        switch reference.definition {
        case .swift(let type):
            return try await find(type, conditions: conditions, mode: mode, sortedBy: sortedBy, limit: limit)
        case .hosted(let hosted):
            let capabilities = hosted.capabilities
            if capabilities.supportsPropertyQuery {
                let checked = try check(conditions, sortedBy: sortedBy, of: hosted.name, against: capabilities)
                let entities = try await hosted.entities(.properties(conditions: checked, mode: mode, sort: sortedBy, limit: limit))
                return (limit.map { Array(entities.prefix(max($0, 0))) } ?? entities).map(IntentValue.entity)
            }
            if capabilities.isEnumerable {
                let all = try await hosted.entities(.suggested).map(IntentValue.entity)
                return try filter(all, conditions: conditions, mode: mode, sortedBy: sortedBy, limit: limit)
            }
            throw EntityQueryError.notQueryable(entity: hosted.name)
        }
    }

    /// Checks conditions and sorts against declared capabilities, converting operands to the
    /// properties' types.
    private static func check(
        _ conditions: [PropertyCondition], sortedBy: [PropertySort], of entity: String, against capabilities: EntityQueryCapabilities
    ) throws -> [PropertyCondition] {
        let queryable = capabilities.properties.filter { !$0.comparators.isEmpty }
        let checked = try conditions.map { condition -> PropertyCondition in
            guard let property = queryable.first(where: { $0.name == condition.property }) else {
                throw EntityQueryError.propertyNotQueryable(entity: entity, property: condition.property, queryable: queryable.map(\.name))
            }
            guard property.comparators.contains(condition.comparator) else {
                throw EntityQueryError.comparatorNotSupported(
                    entity: entity, property: condition.property, comparator: condition.comparator, supported: property.comparators)
            }
            var converted = condition
            var operandType = property.type.nonOptional
            if let element = operandType.elementType {
                operandType = element.nonOptional
            } else if [.contains, .hasPrefix, .hasSuffix].contains(condition.comparator) {
                operandType = .string
            }
            if !operandType.refersToEntities, operandType != .any {
                converted.operands = try condition.operands.map { try ValueCoercion.coerce($0, to: operandType) }
            }
            return converted
        }
        let sortable = capabilities.properties.filter(\.isSortable).map(\.name)
        for sort in sortedBy where !sortable.contains(sort.property) {
            throw EntityQueryError.notSortable(entity: entity, property: sort.property, sortable: sortable)
        }
        return checked
    }

    /// What an entity type's default query can do.
    public static func capabilities(of type: any AppEntity.Type) -> EntityQueryCapabilities {
        func open<Entity: AppEntity>(_ type: Entity.Type) -> EntityQueryCapabilities {
            let query = Entity.defaultQuery
            let descriptors = EntityReflection.schema(for: Entity.self)?.descriptors ?? []
            var comparators: [String: [ComparatorKind]] = [:]
            var sortable: Set<String> = []
            let isPropertyQuery = query is any EntityPropertyQuery
            if let propertyQuery = query as? any EntityPropertyQuery {
                (comparators, sortable) = declared(by: propertyQuery)
            }
            let isEnumerable = query is any EnumerableEntityQuery
            let properties = descriptors.map { descriptor in
                EntityQueryCapabilities.Property(
                    name: descriptor.name, title: descriptor.title.description, type: descriptor.type,
                    comparators: isPropertyQuery
                        ? comparators[descriptor.name] ?? [] : (isEnumerable ? ComparatorKind.allCases.filter(\.takesOperand) : []),
                    isSortable: isPropertyQuery ? sortable.contains(descriptor.name) : isEnumerable)
            }
            return EntityQueryCapabilities(
                properties: properties, supportsPropertyQuery: isPropertyQuery, isEnumerable: isEnumerable,
                supportsStringSearch: query is any EntityStringQuery)
        }
        return open(type)
    }

    /// What a property query type declares, by property name; computed once per type because
    /// naming a key path means reflecting a prototype.
    private struct Declarations: @unchecked Sendable {
        var comparators: [String: [ComparatorKind]] = [:]
        var propertyPositions: [String: Int] = [:]
        var sortPositions: [String: Int] = [:]
    }

    private static let declarations = Mutex<[ObjectIdentifier: Declarations]>([:])

    private static func declarations<Query: EntityPropertyQuery>(of query: Query.Type) -> Declarations {
        let key = ObjectIdentifier(query)
        if let known = declarations.withLock({ $0[key] }) { return known }
        var result = Declarations()
        for (position, property) in Query.properties.properties.enumerated() {
            guard let name = property.name else { continue }
            result.comparators[name, default: []] += property.comparators.map(\.kind)
            if result.propertyPositions[name] == nil { result.propertyPositions[name] = position }
        }
        for (position, option) in Query.sortingOptions.options.enumerated() {
            if let name = option.name, result.sortPositions[name] == nil { result.sortPositions[name] = position }
        }
        declarations.withLock { $0[key] = result }
        return result
    }

    private static func declared<Query: EntityPropertyQuery>(by query: Query) -> ([String: [ComparatorKind]], Set<String>) {
        let found = declarations(of: Query.self)
        return (found.comparators, Set(found.sortPositions.keys))
    }

    /// Finds entities by property conditions, sorted and limited.
    ///
    /// - Parameters:
    ///   - type: The entity type.
    ///   - conditions: The conditions.
    ///   - mode: Whether all or any must hold.
    ///   - sortedBy: The sort order.
    ///   - limit: The most results.
    /// - Returns: Entity values.
    /// - Throws: ``EntityQueryError`` for undeclared properties, comparators or sorts, and
    ///   ``ValueConversionError`` for operands of the wrong type.
    public static func find(
        _ type: any AppEntity.Type, conditions: [PropertyCondition], mode: ComparatorMode = .and,
        sortedBy: [PropertySort] = [], limit: Int? = nil
    ) async throws -> [IntentValue] {
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> [IntentValue] {
            let query = Entity.defaultQuery
            if let propertyQuery = query as? any EntityPropertyQuery {
                return try await pushDown(propertyQuery, conditions: conditions, mode: mode, sortedBy: sortedBy, limit: limit)
            }
            if let enumerable = query as? any EnumerableEntityQuery {
                let all = try await everything(enumerable).map(\.intentValue)
                return try filter(all, conditions: conditions, mode: mode, sortedBy: sortedBy, limit: limit)
            }
            throw EntityQueryError.notQueryable(entity: String(describing: Entity.self))
        }
        return try await open(type)
    }

    private static func everything<Query: EnumerableEntityQuery>(_ query: Query) async throws -> [any AppEntity] {
        try await query.allEntities()
    }

    private static func pushDown<Query: EntityPropertyQuery>(
        _ query: Query, conditions: [PropertyCondition], mode: ComparatorMode, sortedBy: [PropertySort], limit: Int?
    ) async throws -> [IntentValue] {
        let entityName = String(describing: Query.Entity.self)
        let declared = declarations(of: Query.self)
        var mappings: [Query.ComparatorMappingType] = []
        for condition in conditions {
            guard let position = declared.propertyPositions[condition.property] else {
                throw EntityQueryError.propertyNotQueryable(
                    entity: entityName, property: condition.property,
                    queryable: Query.properties.properties.compactMap(\.name))
            }
            let property = Query.properties.properties[position]
            guard let comparator = property.comparator(condition.comparator) else {
                throw EntityQueryError.comparatorNotSupported(
                    entity: entityName, property: condition.property,
                    comparator: condition.comparator,
                    supported: property.comparators.map(\.kind))
            }
            mappings.append(try comparator.mapping(for: condition.operands))
        }
        let sorts = try sortedBy.map { sort -> EntityQuerySort<Query.Entity> in
            guard let position = declared.sortPositions[sort.property] else {
                throw EntityQueryError.notSortable(
                    entity: entityName, property: sort.property,
                    sortable: Query.sortingOptions.propertyNames)
            }
            let option = Query.sortingOptions.options[position]
            return EntityQuerySort(by: option.keyPath, order: sort.order == .ascending ? .ascending : .descending)
        }
        let entities = try await query.entities(matching: mappings, mode: mode, sortedBy: sorts, limit: limit)
        let limited = limit.map { Array(entities.prefix(max($0, 0))) } ?? entities
        return limited.map(\.intentValue)
    }

    /// Filters, sorts and limits entity values in memory, by their `@Property` values.
    ///
    /// - Parameters:
    ///   - values: Entity values (other values are compared by their members).
    ///   - conditions: The conditions.
    ///   - mode: Whether all or any must hold.
    ///   - sortedBy: The sort order.
    ///   - limit: The most results.
    /// - Returns: The values that pass, in order.
    /// - Throws: ``EntityQueryError/unknownProperty(entity:property:known:)`` when a value has
    ///   no such property.
    public static func filter(
        _ values: [IntentValue], conditions: [PropertyCondition], mode: ComparatorMode = .and,
        sortedBy: [PropertySort] = [], limit: Int? = nil
    ) throws -> [IntentValue] {
        var kept = try values.filter { value in
            let results = try conditions.map { condition -> Bool in
                guard let member = value.member(condition.property) else {
                    var known: [String] = []
                    if case .entity(let entity) = value { known = entity.properties.keys.sorted() }
                    throw EntityQueryError.unknownProperty(entity: value.kindName, property: condition.property, known: known)
                }
                return condition.comparator.evaluate(member, condition.operands)
            }
            return conditions.isEmpty || (mode == .and ? results.allSatisfy { $0 } : results.contains(true))
        }
        if !sortedBy.isEmpty {
            kept = kept.enumerated().sorted { left, right in
                for sort in sortedBy {
                    let a = left.element.member(sort.property) ?? .null
                    let b = right.element.member(sort.property) ?? .null
                    let order =
                        ValueComparison.order(a, b) ?? (a.isNull == b.isNull ? .orderedSame : (a.isNull ? .orderedAscending : .orderedDescending))
                    if order == .orderedSame { continue }
                    return sort.order == .ascending ? order == .orderedAscending : order == .orderedDescending
                }
                return left.offset < right.offset
            }.map(\.element)
        }
        if let limit { kept = Array(kept.prefix(max(limit, 0))) }
        return kept
    }
}

/// Why a property query could not run as asked.
public enum EntityQueryError: Error, CustomStringConvertible, Sendable, Equatable {
    case notQueryable(entity: String)
    case propertyNotQueryable(entity: String, property: String, queryable: [String])
    case comparatorNotSupported(entity: String, property: String, comparator: ComparatorKind, supported: [ComparatorKind])
    case notSortable(entity: String, property: String, sortable: [String])
    case unknownProperty(entity: String, property: String, known: [String])

    public var description: String {
        func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ") }
        switch self {
        case .notQueryable(let entity):
            return "\(entity) cannot be searched by property: its query is neither an EntityPropertyQuery nor an EnumerableEntityQuery"
        case .propertyNotQueryable(let entity, let property, let queryable):
            return "\(entity) cannot be queried by '\(property)'" + Self.hint(property, queryable)
                + "\nhelp: queryable properties: \(list(queryable))"
        case .comparatorNotSupported(let entity, let property, let comparator, let supported):
            return "'\(property)' of \(entity) does not support '\(comparator.rawValue)'" + Self.hint(comparator.rawValue, supported.map(\.rawValue))
                + "\nhelp: supported comparators: \(list(supported.map(\.rawValue)))"
        case .notSortable(let entity, let property, let sortable):
            return "\(entity) cannot be sorted by '\(property)'" + Self.hint(property, sortable) + "\nhelp: sortable properties: \(list(sortable))"
        case .unknownProperty(let entity, let property, let known):
            return "\(entity) has no property '\(property)'" + Self.hint(property, known)
        }
    }

    private static func hint(_ name: String, _ candidates: [String]) -> String {
        NameSuggestion.nearest(to: name, among: candidates).map { "\nhelp: did you mean '\($0)'?" } ?? ""
    }
}

import Foundation
import IntentKit

extension ExtensionServer {
    /// The entity methods: `entities/byIdentifiers`, `entities/matching`, `entities/suggested`
    /// and `entities/query`, each answered `{"entities": [entity…]}` through the entity type's
    /// own queries (`entities/query` through ``EntityQueries/find(_:conditions:mode:sortedBy:limit:)``,
    /// as `find` steps run).
    func entities(_ method: String, params: ProtocolParams) async throws -> IntentValue {
        let app = try app(named: params.string("app"))
        let entityName = try params.string("entity")
        guard let type = app.entities.first(where: { Self.names(app.qualifiedName(ofType: $0), entityName, in: app) }) else {
            let known = app.entities.map { String(describing: $0) }
            throw ProtocolError.invalidParams(
                field: "entity", "unknown entity '\(entityName)' in app '\(app.name)'" + Self.hint(entityName, among: known))
        }
        let performer = IntentPerformer(catalog: catalog, locale: locale(of: params))
        try await performer.prepare(app)
        let localization = performer.localization(for: app)
        let entities = try await Localization.$current.withValue(localization) {
            switch method {
            case "entities/byIdentifiers":
                var identifiers: [String] = []
                for (index, identifier) in try params.list("identifiers", required: true).enumerated() {
                    switch identifier {
                    case .string(let text): identifiers.append(text)
                    case .int(let number): identifiers.append(String(number))
                    default: throw ProtocolError.invalidParams(field: "identifiers[\(index)]", "identifiers are text")
                    }
                }
                return try await EntityLookup.withIdentifiers(identifiers, of: type)
            case "entities/matching":
                return try await EntityLookup.matching(try params.string("query"), of: type)
            case "entities/suggested":
                return try await EntityLookup.suggested(of: type)
            default:
                return try await query(params, of: type)
            }
        }
        return .dictionary(["entities": .list(entities)])
    }

    private func query(_ params: ProtocolParams, of type: any AppEntity.Type) async throws -> [IntentValue] {
        let properties = EntityQueries.capabilities(of: type).properties
        var conditions: [PropertyCondition] = []
        for (index, member) in try params.list("conditions").enumerated() {
            let field = "conditions[\(index)]"
            guard case .dictionary(let condition) = member else { throw ProtocolError.invalidParams(field: field, "a condition is an object") }
            let fields = ProtocolParams(condition)
            let property: String
            let comparatorName: String
            do {
                property = try fields.string("property")
                comparatorName = try fields.string("comparator")
            } catch {
                throw ProtocolError.invalidParams(field: "\(field).\(error.data?["field"]?.displayText ?? "")", error.message)
            }
            guard let comparator = ComparatorKind(rawValue: comparatorName) else {
                throw ProtocolError.invalidParams(
                    field: "\(field).comparator",
                    "unknown comparator '\(comparatorName)'" + Self.hint(comparatorName, among: ComparatorKind.allCases.map(\.rawValue)))
            }
            guard case .list(let given)? = condition["operands"] else {
                throw ProtocolError.invalidParams(field: "\(field).operands", "'operands' must be a list")
            }
            var operands: [IntentValue] = []
            let propertyType = properties.first { $0.name == property }?.type ?? .any
            for (position, operand) in given.enumerated() {
                operands.append(try await ProtocolValues.convert(operand, to: propertyType.nonOptional, field: "\(field).operands[\(position)]"))
            }
            conditions.append(PropertyCondition(property: property, comparator: comparator, operands: operands))
        }
        let mode: ComparatorMode
        switch try params.optionalString("mode") {
        case nil, "and": mode = .and
        case "or": mode = .or
        case let other?: throw ProtocolError.invalidParams(field: "mode", "mode is \"and\" or \"or\", not '\(other)'")
        }
        var sorts: [PropertySort] = []
        for (index, member) in try params.list("sort").enumerated() {
            let field = "sort[\(index)]"
            guard case .dictionary(let sort) = member, case .string(let property)? = sort["property"] else {
                throw ProtocolError.invalidParams(field: "\(field).property", "a sort is an object with a 'property'")
            }
            switch sort["order"] {
            case nil, .string("ascending")?: sorts.append(PropertySort(property: property, order: .ascending))
            case .string("descending")?: sorts.append(PropertySort(property: property, order: .descending))
            default: throw ProtocolError.invalidParams(field: "\(field).order", "order is \"ascending\" or \"descending\"")
            }
        }
        let limit = try params.optionalInt("limit")
        if let limit, limit < 0 { throw ProtocolError.invalidParams(field: "limit", "limit is 0 or more") }
        do {
            return try await EntityQueries.find(type, conditions: conditions, mode: mode, sortedBy: sorts, limit: limit)
        } catch let error as EntityQueryError {
            throw ProtocolError.invalidParams(field: Self.field(of: error, conditions: conditions, sorts: sorts), error.description)
        } catch let error as ValueConversionError {
            throw ProtocolError.invalidParams(field: "conditions", error.description)
        }
    }

    /// The member an entity query error is about: `conditions[1].comparator`, `sort[0].property`.
    private static func field(of error: EntityQueryError, conditions: [PropertyCondition], sorts: [PropertySort]) -> String {
        switch error {
        case .notQueryable: return "entity"
        case .propertyNotQueryable(_, let property, _), .unknownProperty(_, let property, _):
            return conditions.firstIndex { $0.property == property }.map { "conditions[\($0)].property" } ?? "conditions"
        case .comparatorNotSupported(_, let property, let comparator, _):
            return conditions.firstIndex { $0.property == property && $0.comparator == comparator }.map { "conditions[\($0)].comparator" }
                ?? "conditions"
        case .notSortable(_, let property, _):
            return sorts.firstIndex { $0.property == property }.map { "sort[\($0)].property" } ?? "sort"
        }
    }
}

/// Entity lookups by an entity type's own queries, for the entity methods.
enum EntityLookup {
    /// The entities with these identifiers that exist.
    static func withIdentifiers(_ identifiers: [String], of type: any AppEntity.Type) async throws -> [IntentValue] {
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> [IntentValue] {
            let ids = identifiers.compactMap { Entity.ID.entityIdentifier(for: $0) }
            guard !ids.isEmpty else { return [] }
            return try await Entity.defaultQuery.entities(for: ids).map(\.intentValue)
        }
        return try await open(type)
    }

    /// The entities a text matches: the entity's string query when it has one, else the
    /// entities (all of an enumerable query's, else the suggested ones) whose title contains
    /// the text, ignoring case and diacritics.
    static func matching(_ text: String, of type: any AppEntity.Type) async throws -> [IntentValue] {
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> [IntentValue] {
            let query = Entity.defaultQuery
            if let stringQuery = query as? any EntityStringQuery {
                return try await matching(text, in: stringQuery)
            }
            let pool: [Entity]
            if let enumerable = query as? any EnumerableEntityQuery {
                pool = try await all(of: enumerable).compactMap { $0 as? Entity }
            } else {
                pool = try await query.suggestedEntities()
            }
            let folded = ValueComparison.fold(text)
            return pool.filter { ValueComparison.fold($0.displayRepresentation.title.description).contains(folded) }.map(\.intentValue)
        }
        return try await open(type)
    }

    /// The entities the type's query suggests.
    static func suggested(of type: any AppEntity.Type) async throws -> [IntentValue] {
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> [IntentValue] {
            try await Entity.defaultQuery.suggestedEntities().map(\.intentValue)
        }
        return try await open(type)
    }

    private static func matching<Query: EntityStringQuery>(_ text: String, in query: Query) async throws -> [IntentValue] {
        try await query.entities(matching: text).map(\.intentValue)
    }

    private static func all<Query: EnumerableEntityQuery>(of query: Query) async throws -> [any AppEntity] {
        try await query.allEntities()
    }
}

import Foundation

/// Turns values into entities through the entity type's queries.
///
/// Text resolves, in order: as an identifier (``EntityQuery/entities(for:)``); through
/// ``EntityStringQuery/entities(matching:)``; or, for other queries, against the titles of
/// ``EnumerableEntityQuery/allEntities()`` or ``EntityQuery/suggestedEntities()``. One match is
/// used; of several, an exact title match (ignoring case) when it is the only one, otherwise
/// the ``Interaction`` is asked to choose.
///
/// ```swift
/// let book = try await EntityResolver.resolve(.string("Emma"), as: BookEntity.self, name: "book",
///                                             interaction: ScriptedInteraction())
/// ```
package enum EntityResolver {
    /// Resolves a value (an entity, an identifier or a title, or a list of them) to an entity value.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - type: The entity type.
    ///   - name: The parameter or step name a choice is asked under.
    ///   - interaction: Who chooses among several matches.
    /// - Returns: An ``IntentValue/entity(_:)`` value.
    /// - Throws: ``IntentError/entityNotFound(entity:text:)``, or the interaction's error.
    package static func resolve(
        _ value: IntentValue, as type: any AppEntity.Type, name: String,
        interaction: any Interaction
    ) async throws -> IntentValue {
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> IntentValue {
            try await resolve(value, entity: type, name: name, interaction: interaction).intentValue
        }
        return try await open(type)
    }

    /// Resolves a value to an entity value of a Swift or hosted entity type.
    package static func resolve(
        _ value: IntentValue, as reference: EntityTypeReference, name: String,
        interaction: any Interaction
    ) async throws -> IntentValue {
        switch reference.definition {
        case .swift(let type): try await resolve(value, as: type, name: name, interaction: interaction)
        case .hosted(let hosted): .entity(try await resolve(value, hosted: hosted, name: name, interaction: interaction))
        }
    }

    static func resolve<Entity: AppEntity>(
        _ value: IntentValue, entity: Entity.Type, name: String,
        interaction: any Interaction
    ) async throws -> Entity {
        switch value {
        case .entity(let entityValue):
            if let instance = entityValue.instance as? Entity { return instance }
            return try await resolveText(entityValue.identifier, entity: entity, name: name, interaction: interaction)
        case .string(let text):
            return try await resolveText(text, entity: entity, name: name, interaction: interaction)
        case .int(let number):
            return try await resolveText(String(number), entity: entity, name: name, interaction: interaction)
        default:
            throw ValueConversionError(
                value: value, expectedType: Entity.intentValueType,
                hint: "give a \(Entity.self) or its title")
        }
    }

    private static func resolveText<Entity: AppEntity>(
        _ text: String, entity: Entity.Type, name: String,
        interaction: any Interaction
    ) async throws -> Entity {
        let query = Entity.defaultQuery
        if let identifier = Entity.ID.entityIdentifier(for: text),
            let found = try await query.entities(for: [identifier]).first
        {
            return found
        }
        var candidates: [Entity]
        if let stringQuery = query as? any EntityStringQuery {
            candidates = try await matching(text, in: stringQuery, as: Entity.self)
        } else {
            let pool: [Entity]
            if let enumerable = query as? any EnumerableEntityQuery {
                pool = try await all(of: enumerable, as: Entity.self)
            } else {
                pool = try await query.suggestedEntities()
            }
            let folded = ValueComparison.fold(text)
            candidates = pool.filter { ValueComparison.fold($0.displayRepresentation.title.description).contains(folded) }
        }
        let typeName = Entity.typeDisplayRepresentation.name
        let question: LocalizedStringResource = "Which \(typeName)?"
        return try await choose(
            text, among: candidates, title: { $0.displayRepresentation.title.description },
            subtitle: { $0.displayRepresentation.subtitle?.description }, typeTitle: typeName.description,
            question: question.description, name: name, interaction: interaction)
    }

    /// Resolves a value to an entity of a hosted app: an entity value as it is, else its text
    /// as an identifier (``HostedEntityRequest/Query/identifiers(_:)``), then through
    /// ``HostedEntityRequest/Query/matching(_:)`` when the type supports string search, or
    /// against the titles of its suggested entities.
    static func resolve(
        _ value: IntentValue, hosted: HostedEntityType, name: String, interaction: any Interaction
    ) async throws -> EntityValue {
        let text: String
        switch value {
        case .entity(let entity) where entity.typeName == hosted.name:
            return entity
        case .entity(let entity):
            text = entity.identifier
        case .dictionary:
            if let entity = hosted.decode(value) { return entity }
            throw ValueConversionError(value: value, expectedType: .entity(EntityTypeReference(hosted: hosted)))
        case .string(let given):
            text = given
        case .int(let number):
            text = String(number)
        default:
            throw ValueConversionError(
                value: value, expectedType: .entity(EntityTypeReference(hosted: hosted)), hint: "give a \(hosted.name) or its title")
        }
        if let found = try await hosted.entities(.identifiers([text])).first { return found }
        var candidates: [EntityValue]
        if hosted.metadata.supportsStringSearch {
            candidates = try await hosted.entities(.matching(text))
        } else {
            let folded = ValueComparison.fold(text)
            candidates = try await hosted.entities(.suggested).filter { ValueComparison.fold($0.title).contains(folded) }
        }
        let typeTitle = hosted.metadata.title
        let question: LocalizedStringResource = "Which \(typeTitle)?"
        return try await choose(
            text, among: candidates, title: \.title, subtitle: \.subtitle, typeTitle: typeTitle,
            question: question.description, name: name, interaction: interaction)
    }

    /// Picks the entity text meant among candidates: the only one; of several, the only exact
    /// title match (ignoring case); otherwise the one the interaction chooses.
    private static func choose<Candidate>(
        _ text: String, among found: [Candidate], title: (Candidate) -> String, subtitle: (Candidate) -> String?,
        typeTitle: String, question: String, name: String, interaction: any Interaction
    ) async throws -> Candidate {
        var candidates = found
        if candidates.count > 1 {
            let folded = ValueComparison.fold(text)
            let exact = candidates.filter { ValueComparison.fold(title($0)) == folded }
            if exact.count == 1 { candidates = exact }
        }
        switch candidates.count {
        case 0:
            throw IntentError.entityNotFound(entity: typeTitle, text: text)
        case 1:
            return candidates[0]
        default:
            let options = candidates.map { candidate -> String in
                subtitle(candidate).map { "\(title(candidate)) (\($0))" } ?? title(candidate)
            }
            let index = try await interaction.requestChoice(ChoiceRequest(name: name, question: question, options: options))
            return candidates[index]
        }
    }

    private static func matching<Entity: AppEntity>(_ text: String, in query: any EntityStringQuery, as: Entity.Type) async throws -> [Entity] {
        func open<Query: EntityStringQuery>(_ query: Query) async throws -> [Entity] {
            try await query.entities(matching: text).compactMap { $0 as? Entity }
        }
        return try await open(query)
    }

    static func all<Entity: AppEntity>(of query: any EnumerableEntityQuery, as: Entity.Type) async throws -> [Entity] {
        func open<Query: EnumerableEntityQuery>(_ query: Query) async throws -> [Entity] {
            try await query.allEntities().compactMap { $0 as? Entity }
        }
        return try await open(query)
    }
}

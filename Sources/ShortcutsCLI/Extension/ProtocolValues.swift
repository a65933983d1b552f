import Foundation
import IntentKit

/// Turns the engine's value JSON into values of a declared type.
///
/// Most conversions are the engine's own (``IntentPerformer`` coerces text to numbers, dates
/// from ISO 8601 text, enum cases by raw value or title). What JSON adds are entity objects
/// (`{"type": "BookEntity", "id": "…", …}`): they resolve through the entity type's query by
/// their `id`, in lists and optionals too. Identifiers and titles given as text are left to the
/// performer, which looks them up.
///
/// ```swift
/// let book = try await ProtocolValues.convert(.dictionary(["type": "BookEntity", "id": "42"]),
///                                             to: BookEntity.intentValueType, field: "arguments.book")
/// ```
enum ProtocolValues {
    /// Converts a value for a type.
    ///
    /// - Parameters:
    ///   - value: The value as JSON read it.
    ///   - type: The declared type.
    ///   - field: Where the value is, for errors (`arguments.book`).
    /// - Returns: The value, with entity objects resolved to entities.
    /// - Throws: ``ProtocolError`` naming the field for an entity object without an `id` or of
    ///   another type; ``IntentError/entityNotFound(entity:text:)`` when no entity has the id.
    static func convert(_ value: IntentValue, to type: IntentValueType, field: String) async throws -> IntentValue {
        switch (type, value) {
        case (.optional, .null):
            return .null
        case (.optional(let wrapped), _):
            return try await convert(value, to: wrapped, field: field)
        case (.list(let element), .list(let items)):
            var converted: [IntentValue] = []
            for (index, item) in items.enumerated() {
                converted.append(try await convert(item, to: element, field: "\(field)[\(index)]"))
            }
            return .list(converted)
        case (.list(let element), _):
            return try await convert(value, to: element, field: field)
        case (.dictionary(let valueType), .dictionary(let entries)) where valueType.refersToEntities:
            var converted: [String: IntentValue] = [:]
            for (key, entry) in entries { converted[key] = try await convert(entry, to: valueType, field: "\(field).\(key)") }
            return .dictionary(converted)
        case (.entity(let reference), .dictionary(let members)):
            return try await entity(members, as: reference, field: field)
        default:
            return value
        }
    }

    private static func entity(_ members: [String: IntentValue], as reference: EntityTypeReference, field: String) async throws -> IntentValue {
        let identifier: String
        switch members["id"] {
        case .string(let text)?: identifier = text
        case .int(let number)?: identifier = String(number)
        default: throw ProtocolError.invalidParams(field: field, "an entity is an object with an 'id'")
        }
        if case .string(let typeName)? = members["type"], typeName != reference.name, !typeName.hasSuffix("." + reference.name) {
            throw ProtocolError.invalidParams(field: field, "'\(typeName)' is not a \(reference.name)")
        }
        func open<Entity: AppEntity>(_ type: Entity.Type) async throws -> IntentValue {
            guard let id = Entity.ID.entityIdentifier(for: identifier), let found = try await Entity.defaultQuery.entities(for: [id]).first else {
                throw IntentError.entityNotFound(entity: Entity.typeDisplayRepresentation.name.description, text: identifier)
            }
            return found.intentValue
        }
        guard let type = reference.type else {
            throw ProtocolError.invalidParams(field: field, "\(reference.name) belongs to an app this tool does not serve")
        }
        return try await open(type)
    }
}

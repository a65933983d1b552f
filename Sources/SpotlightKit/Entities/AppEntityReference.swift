import Foundation
import IntentKit

/// Names the app entity a searchable item stands for: the entity type and its identifier.
///
/// Items made with ``SearchableItem/init(appEntity:expirationDate:)`` or
/// ``SearchableIndex/indexAppEntities(_:)`` carry one, and so do items whose attribute set was
/// given one with ``SearchableItemAttributeSet/associateAppEntity(_:)`` (a store's delegate
/// does that). It is stored in two custom attributes, `appEntityType` and
/// `appEntityIdentifier`, which queries can use: `appEntityType == "BookEntity"`.
///
/// ```swift
/// for try await item in query.results {
///     if let reference = item.associatedAppEntity {
///         print(reference.typeIdentifier, reference.identifier)
///     }
/// }
/// ```
public struct AppEntityReference: Sendable, Hashable, CustomStringConvertible {
    /// The entity type's ``IndexedEntity/entityTypeIdentifier``.
    public var typeIdentifier: String
    /// The entity's identifier as text (`EntityIdentifierConvertible`).
    public var identifier: String

    /// The custom attribute holding the entity type.
    public static let typeKey = "appEntityType"
    /// The custom attribute holding the entity identifier.
    public static let identifierKey = "appEntityIdentifier"
    static let reservedKeys: Set<String> = [typeKey, identifierKey]

    /// Creates a reference.
    ///
    /// ```swift
    /// let reference = AppEntityReference(typeIdentifier: "BookEntity", identifier: book.id.uuidString)
    /// ```
    ///
    /// - Parameters:
    ///   - typeIdentifier: The entity type's identifier.
    ///   - identifier: The entity's identifier as text.
    public init(typeIdentifier: String, identifier: String) {
        self.typeIdentifier = typeIdentifier
        self.identifier = identifier
    }

    /// The reference to an entity.
    ///
    /// ```swift
    /// let reference = AppEntityReference(book)
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The entity.
    public init<Entity: IndexedEntity>(_ entity: Entity) {
        self.init(typeIdentifier: Entity.entityTypeIdentifier, identifier: entity.id.entityIdentifierString)
    }

    /// The unique identifier of the item made by ``SearchableItem/init(appEntity:expirationDate:)``:
    /// `x-entity://TYPE/IDENTIFIER`.
    public var uniqueIdentifier: String { "\(Self.scheme)\(typeIdentifier)/\(identifier)" }

    /// Reads a reference from an item identifier of the form `x-entity://TYPE/IDENTIFIER`.
    ///
    /// ```swift
    /// AppEntityReference(uniqueIdentifier: "x-entity://BookEntity/42")?.identifier   // "42"
    /// ```
    ///
    /// - Parameters:
    ///   - uniqueIdentifier: A searchable item's identifier.
    public init?(uniqueIdentifier: String) {
        guard uniqueIdentifier.hasPrefix(Self.scheme) else { return nil }
        let rest = uniqueIdentifier.dropFirst(Self.scheme.count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex else { return nil }
        self.init(typeIdentifier: String(rest[..<slash]), identifier: String(rest[rest.index(after: slash)...]))
    }

    public var description: String { uniqueIdentifier }

    static let scheme = "x-entity://"
}

extension SearchableItemAttributeSet {
    /// Records that the item stands for an app entity, so searches can return the entity.
    ///
    /// ```swift
    /// override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
    ///     let book = BookRecord(row: object.row).entity
    ///     var set = book.attributeSet
    ///     set.associateAppEntity(book)
    ///     return set
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The entity the item stands for.
    public mutating func associateAppEntity<Entity: IndexedEntity>(_ entity: Entity) {
        let reference = AppEntityReference(entity)
        self[customKey: AppEntityReference.typeKey] = .string(reference.typeIdentifier)
        self[customKey: AppEntityReference.identifierKey] = .string(reference.identifier)
    }

    /// The app entity the item stands for, if any.
    public var associatedAppEntity: AppEntityReference? {
        guard case .string(let type)? = self[customKey: AppEntityReference.typeKey],
            case .string(let identifier)? = self[customKey: AppEntityReference.identifierKey]
        else { return nil }
        return AppEntityReference(typeIdentifier: type, identifier: identifier)
    }
}

extension SearchableItem {
    /// An item for an app entity: identified by the entity type and identifier, in the domain
    /// named after the entity type, with the entity's attribute set and its association.
    ///
    /// ```swift
    /// let item = SearchableItem(appEntity: book)
    /// item.uniqueIdentifier   // "x-entity://BookEntity/E621E1F8-…"
    /// item.domainIdentifier   // "BookEntity"
    /// ```
    ///
    /// - Parameters:
    ///   - appEntity: The entity.
    ///   - expirationDate: When the item stops being searchable.
    public init<Entity: IndexedEntity>(appEntity: Entity, expirationDate: Date? = nil) {
        var attributes = appEntity.attributeSet
        attributes.associateAppEntity(appEntity)
        self.init(
            uniqueIdentifier: AppEntityReference(appEntity).uniqueIdentifier,
            domainIdentifier: Entity.entityTypeIdentifier, attributeSet: attributes,
            expirationDate: expirationDate)
    }

    /// The app entity this item stands for, if any.
    public var associatedAppEntity: AppEntityReference? { attributeSet.associatedAppEntity }
}

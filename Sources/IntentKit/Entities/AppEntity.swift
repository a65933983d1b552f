import Foundation

/// A thing of your app that intents take and return: a book, a photo, an order.
///
/// ```swift
/// struct BookEntity: AppEntity, Identifiable {
///     var id: UUID
///     @Property(title: "Title") var title: String
///     var displayRepresentation: DisplayRepresentation { "\(title)" }
///     static var typeDisplayRepresentation: TypeDisplayRepresentation = "Book"
///     static var defaultQuery = BookQuery()
/// }
/// ```
///
/// `@Property` values are visible to property queries, workflow `find`/`filter` steps and
/// `${book.title}` expressions. Conform to ``ReflectableEntity`` so that they are known before
/// any entity is stored.
public protocol AppEntity: IntentValueConvertible, Identifiable where ID: EntityIdentifierConvertible {
    /// The query that finds entities of this type: by identifier, by text, by property.
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    /// The entity type's name.
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// How this entity is shown.
    var displayRepresentation: DisplayRepresentation { get }
    /// The query used to look entities up.
    static var defaultQuery: DefaultQuery { get }
}

extension AppEntity {
    /// Declares a property visible to queries and workflows: `@Property(title: "Title") var title: String`.
    public typealias Property<Value: IntentValueConvertible> = EntityProperty<Value>

    public static var intentValueType: IntentValueType { .entity(EntityTypeReference(Self.self)) }

    public var intentValue: IntentValue {
        let representation = displayRepresentation
        let localization = Localization.current
        return .entity(
            EntityValue(
                typeName: EntityReflection.typeName(of: Self.self), identifier: id.entityIdentifierString,
                title: representation.title.description, subtitle: representation.subtitle?.description,
                instance: self,
                readProperties: { [self] in
                    Localization.$current.withValue(localization) {
                        var properties: [String: IntentValue] = [:]
                        for property in EntityReflection.properties(of: self) {
                            properties[property.name] = property.wrapper.currentValue ?? .null
                        }
                        return properties
                    }
                }))
    }

    /// Takes the entity out of an entity value. Text is turned into entities by the engine's
    /// ``EntityResolver``, which asks the entity's queries.
    public init(intentValue: IntentValue) throws {
        guard case .entity(let value) = intentValue, let instance = value.instance as? Self else {
            throw ValueConversionError(
                value: intentValue, expectedType: Self.intentValueType,
                hint: "look the \(Self.typeDisplayRepresentation.name.key) up by identifier or title first")
        }
        self = instance
    }
}

/// An entity that IntentKit can create from an identifier alone, to learn its `@Property`
/// names, titles and types without any stored data.
///
/// Entities that already have `init(id:)` conform with one line:
///
/// ```swift
/// extension BookEntity: ReflectableEntity {}
/// ```
///
/// Entities that do not conform are reflected from the first entity their query returns.
public protocol ReflectableEntity: AppEntity {
    /// Creates an entity with only its identifier set.
    init(id: ID)
    /// An identifier to create the blank entity with.
    static var reflectionIdentifier: ID { get }
}

extension ReflectableEntity where ID == UUID {
    public static var reflectionIdentifier: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension ReflectableEntity where ID == String {
    public static var reflectionIdentifier: String { "" }
}

extension ReflectableEntity where ID == Int {
    public static var reflectionIdentifier: Int { 0 }
}

/// An identifier type that converts to and from text, so entities can be named in YAML,
/// on the command line and in stored traces.
///
/// ```swift
/// UUID().entityIdentifierString
/// UUID.entityIdentifier(for: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
/// ```
public protocol EntityIdentifierConvertible: Sendable, Hashable {
    /// The identifier as text.
    var entityIdentifierString: String { get }
    /// The identifier written as `string`, or `nil` when the text is not one.
    static func entityIdentifier(for string: String) -> Self?
}

extension UUID: EntityIdentifierConvertible {
    public var entityIdentifierString: String { uuidString }
    public static func entityIdentifier(for string: String) -> UUID? { UUID(uuidString: string) }
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for string: String) -> String? { string }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    public static func entityIdentifier(for string: String) -> Int? { Int(string) }
}

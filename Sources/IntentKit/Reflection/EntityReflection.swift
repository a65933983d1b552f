import Foundation
import Synchronization

/// A `@Property` of an entity type, known without any stored data.
public struct EntityPropertyDescriptor: Sendable, Hashable {
    /// The Swift property name, as YAML and expressions write it.
    public var name: String
    /// The property's title.
    public var title: LocalizedStringResource
    /// The property's type.
    public var type: IntentValueType
}

/// Reads entities' `@Property` wrappers with `Mirror`, and turns key paths such as
/// `\BookEntity.$title` into property names by the identity of the wrapper's storage.
enum EntityReflection {
    struct ReflectedProperty {
        var name: String
        var wrapper: any AnyEntityProperty
    }

    /// What is known of an entity type: a prototype instance and its properties.
    struct Schema: @unchecked Sendable {
        var prototype: any AppEntity
        var properties: [ReflectedProperty]

        var descriptors: [EntityPropertyDescriptor] {
            properties.map {
                EntityPropertyDescriptor(name: $0.name, title: $0.wrapper.title, type: $0.wrapper.valueType)
            }
        }

        func propertyName(for keyPath: AnyKeyPath) -> String? {
            guard let wrapper = EntityReflection.apply(keyPath, to: prototype) as? any AnyEntityProperty else {
                return nil
            }
            return properties.first { $0.wrapper.storageIdentity == wrapper.storageIdentity }?.name
        }
    }

    private static let schemas = Mutex<[ObjectIdentifier: Schema]>([:])
    private static let typeNames = Mutex<[ObjectIdentifier: String]>([:])

    /// `String(describing: type)`, computed once per entity type.
    static func typeName(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = typeNames.withLock({ $0[key] }) { return known }
        let name = String(describing: type)
        typeNames.withLock { $0[key] = name }
        return name
    }

    /// The `@Property` wrappers of an entity, in declaration order (superclasses first).
    static func properties(of entity: Any) -> [ReflectedProperty] {
        WrapperMirror.wrappers(of: entity, as: (any AnyEntityProperty).self).map {
            ReflectedProperty(name: $0.name, wrapper: $0.wrapper)
        }
    }

    /// The schema of an entity type: from a blank ``ReflectableEntity``, or from an entity
    /// seen earlier through ``learn(from:)``.
    static func schema(for type: any AppEntity.Type) -> Schema? {
        let key = ObjectIdentifier(type)
        if let known = schemas.withLock({ $0[key] }) { return known }
        guard let reflectable = type as? any ReflectableEntity.Type else { return nil }
        let prototype = makePrototype(reflectable)
        let schema = Schema(prototype: prototype, properties: properties(of: prototype))
        schemas.withLock { $0[key] = schema }
        return schema
    }

    /// Remembers an entity as the prototype of its type when the type cannot make a blank one.
    static func learn(from entity: some AppEntity) {
        let key = ObjectIdentifier(type(of: entity))
        schemas.withLock { table in
            if table[key] == nil {
                table[key] = Schema(prototype: entity, properties: properties(of: entity))
            }
        }
    }

    private static func makePrototype<Entity: ReflectableEntity>(_ type: Entity.Type) -> any AppEntity {
        Entity(id: Entity.reflectionIdentifier)
    }

    static func apply(_ keyPath: AnyKeyPath, to entity: any AppEntity) -> Any? {
        func open<Entity: AppEntity>(_ entity: Entity) -> Any? { entity[keyPath: keyPath] }
        return open(entity)
    }
}

import Foundation

/// A property of an ``AppEntity`` that queries, workflows and metadata can see.
///
/// Write it as `@Property` inside an entity:
///
/// ```swift
/// @Property(title: "Publishing Date") var datePublished: Date
/// ```
///
/// Its storage is a class shared by copies of the wrapper, which is how the engine finds a
/// property's name from a key path such as `\BookEntity.$title`; assigning through the wrapped
/// value copies the storage first, so entities keep value semantics.
@propertyWrapper
public struct EntityProperty<Value: IntentValueConvertible>: @unchecked Sendable {
    final class Storage: @unchecked Sendable {
        let title: LocalizedStringResource
        var value: Value?

        init(title: LocalizedStringResource, value: Value?) {
            self.title = title
            self.value = value
        }
    }

    var storage: Storage

    /// Declares a property without a value yet.
    public init(title: LocalizedStringResource) {
        storage = Storage(title: title, value: nil)
    }

    /// Declares a property with an initial value.
    public init(wrappedValue: Value, title: LocalizedStringResource) {
        storage = Storage(title: title, value: wrappedValue)
    }

    /// The property's value.
    public var wrappedValue: Value {
        get {
            if let value = storage.value { return value }
            if let absent = (Value.self as? any OptionalValue.Type)?.absent as? Value { return absent }
            fatalError("@Property '\(storage.title.key)' was read before a value was assigned to it")
        }
        set {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(title: storage.title, value: newValue)
            } else {
                storage.value = newValue
            }
        }
    }

    /// The wrapper itself, so `\Entity.$title` names the property.
    public var projectedValue: EntityProperty<Value> { self }

    /// The property's title.
    public var title: LocalizedStringResource { storage.title }
}

/// The engine's untyped view of an `@Property` wrapper.
protocol AnyEntityProperty {
    var storageIdentity: ObjectIdentifier { get }
    var title: LocalizedStringResource { get }
    var valueType: IntentValueType { get }
    var currentValue: IntentValue? { get }
}

extension EntityProperty: AnyEntityProperty {
    var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
    var valueType: IntentValueType { Value.intentValueType }
    var currentValue: IntentValue? { storage.value.map(\.intentValue) }
}

import Foundation
import Synchronization

/// A parameter of an intent type, known from a blank instance.
package struct ParameterDescriptor: Sendable, Hashable {
    /// The Swift property name, as YAML, `--answer` and `name=value` arguments write it.
    package var name: String
    /// The parameter's title.
    package var title: LocalizedStringResource
    /// What the parameter is for.
    package var description: LocalizedStringResource?
    /// The parameter's type (optional types are `.optional`).
    package var type: IntentValueType
    /// The default value, if any.
    package var defaultValue: IntentValue?
    /// The question asked when the value is missing.
    package var requestValueDialog: IntentDialog?

    /// Whether the intent can run without a value for this parameter.
    package var isOptional: Bool { type.isOptional }
    /// Whether a value must be given or asked for before the intent runs.
    package var isRequired: Bool { !type.isOptional && defaultValue == nil }
}

/// Reads intents' `@Parameter` wrappers with `Mirror` (labels `_name` → parameter `name`),
/// as swift-argument-parser reads its arguments, and resolves `\.$name` key paths by the
/// identity of the wrapper's storage.
enum IntentReflection {
    struct ReflectedParameter {
        var name: String
        var wrapper: any AnyIntentParameter
    }

    /// What one blank instance of an intent type tells; a class, so a cache hit is one retain.
    private final class Prototype: @unchecked Sendable {
        let intent: any AppIntent
        let parameters: [ReflectedParameter]
        /// The wrappers' dynamic types, to recognise a fresh instance's parameters.
        let wrapperTypes: [ObjectIdentifier]
        /// `String(describing:)` of the type, which qualified names are made of.
        let typeName: String

        init(intent: any AppIntent, parameters: [ReflectedParameter], wrapperTypes: [ObjectIdentifier], typeName: String) {
            self.intent = intent
            self.parameters = parameters
            self.wrapperTypes = wrapperTypes
            self.typeName = typeName
        }
    }

    private static let prototypes = Mutex<[ObjectIdentifier: Prototype]>([:])

    /// The parameters of an intent instance, in declaration order; names are written into
    /// the wrappers so that requests made from `perform()` know which parameter asks.
    static func parameters(of intent: any AppIntent) -> [ReflectedParameter] {
        WrapperMirror.wrappers(of: intent, as: (any AnyIntentParameter).self).map { name, wrapper in
            wrapper.assignName(name)
            return ReflectedParameter(name: name, wrapper: wrapper)
        }
    }

    /// A fresh instance of an intent type and its named parameters.
    ///
    /// The wrappers `init()` creates are collected as it runs and named from the type's
    /// prototype; an `init()` that creates wrappers in another way (more of them, other
    /// types or titles) is reflected with `Mirror` instead.
    static func instantiate(_ type: any AppIntent.Type) -> (intent: any AppIntent, parameters: [ReflectedParameter]) {
        let prototype = prototype(for: type)
        let (intent, wrappers) = ParameterCollector.collect { type.init() }
        guard wrappers.count == prototype.parameters.count else { return (intent, parameters(of: intent)) }
        var parameters: [ReflectedParameter] = []
        parameters.reserveCapacity(wrappers.count)
        for (index, wrapper) in wrappers.enumerated() {
            let known = prototype.parameters[index]
            guard ObjectIdentifier(Swift.type(of: wrapper)) == prototype.wrapperTypes[index],
                wrapper.title.key == known.wrapper.title.key
            else { return (intent, Self.parameters(of: intent)) }
            wrapper.assignName(known.name)
            parameters.append(ReflectedParameter(name: known.name, wrapper: wrapper))
        }
        return (intent, parameters)
    }

    /// `String(describing: type)`, computed once per intent type.
    static func typeName(of type: any AppIntent.Type) -> String {
        prototype(for: type).typeName
    }

    /// The parameters of an intent type, from a blank instance made with `init()`.
    static func descriptors(for type: any AppIntent.Type) -> [ParameterDescriptor] {
        prototype(for: type).parameters.map { parameter in
            ParameterDescriptor(
                name: parameter.name, title: parameter.wrapper.title,
                description: parameter.wrapper.parameterDescription, type: parameter.wrapper.valueType,
                defaultValue: parameter.wrapper.defaultIntentValue,
                requestValueDialog: parameter.wrapper.requestValueDialog)
        }
    }

    /// The name of the parameter a key path such as `\OpenShelf.$shelf` points at.
    static func parameterName(for keyPath: AnyKeyPath, in type: any AppIntent.Type) -> String? {
        let prototype = prototype(for: type)
        return name(for: keyPath, in: prototype.intent, among: prototype.parameters)
    }

    /// The name and current value of the parameter a key path points at in an instance.
    static func parameter(for keyPath: AnyKeyPath, in intent: any AppIntent) -> ReflectedParameter? {
        guard let wrapper = apply(keyPath, to: intent) as? any AnyIntentParameter else { return nil }
        let name =
            parameterName(for: keyPath, in: type(of: intent))
            ?? parameters(of: intent).first { $0.wrapper.storageIdentity == wrapper.storageIdentity }?.name
        return name.map { ReflectedParameter(name: $0, wrapper: wrapper) }
    }

    private static func name(
        for keyPath: AnyKeyPath, in intent: any AppIntent,
        among parameters: [ReflectedParameter]
    ) -> String? {
        guard let wrapper = apply(keyPath, to: intent) as? any AnyIntentParameter else { return nil }
        return parameters.first { $0.wrapper.storageIdentity == wrapper.storageIdentity }?.name
    }

    private static func prototype(for type: any AppIntent.Type) -> Prototype {
        let key = ObjectIdentifier(type)
        if let known = prototypes.withLock({ $0[key] }) { return known }
        let intent = type.init()
        let parameters = parameters(of: intent)
        let prototype = Prototype(
            intent: intent, parameters: parameters,
            wrapperTypes: parameters.map { ObjectIdentifier(Swift.type(of: $0.wrapper)) },
            typeName: String(describing: type))
        prototypes.withLock { $0[key] = prototype }
        return prototype
    }

    static func apply(_ keyPath: AnyKeyPath, to intent: any AppIntent) -> Any? {
        func open<Intent: AppIntent>(_ intent: Intent) -> Any? { intent[keyPath: keyPath] }
        return open(intent)
    }
}

/// Public views of what reflection finds in intent and entity types, for tools (validators,
/// editors, the command line).
///
/// ```swift
/// IntentIntrospection.parameters(of: AddBook.self).map(\.name)   // ["title", "authorName", ...]
/// ```
package enum IntentIntrospection {
    /// The parameters of an intent type, in declaration order.
    package static func parameters(of type: any AppIntent.Type) -> [ParameterDescriptor] {
        IntentReflection.descriptors(for: type)
    }

    /// The `@Property`s of an entity type, known without stored data for ``ReflectableEntity``
    /// types (and for others once one entity was seen).
    package static func properties(of type: any AppEntity.Type) -> [EntityPropertyDescriptor] {
        EntityReflection.schema(for: type)?.descriptors ?? []
    }

    /// The properties of a Swift or hosted entity type.
    package static func properties(of reference: EntityTypeReference) -> [EntityPropertyDescriptor] {
        switch reference.definition {
        case .swift(let type): properties(of: type)
        case .hosted(let hosted): hosted.properties
        }
    }
}

import Foundation

/// An input of an ``AppIntent``, written `@Parameter` inside the intent.
///
/// ```swift
/// @Parameter(title: "Title") var title: String
/// @Parameter(title: "Author Name", requestValueDialog: "Who wrote the book?") var authorName: String?
/// @Parameter(title: "Count", default: 1) var count: Int
/// ```
///
/// A non-optional parameter without a value is asked for through the ``Interaction`` with its
/// `requestValueDialog` before ``AppIntent/perform()`` runs. The projected value (`$title`)
/// asks questions from inside `perform()`.
///
/// The wrapper's storage is a class: the engine writes values through the copies `Mirror`
/// returns, and resolves key paths like `\.$title` by the storage's identity. Create a fresh
/// intent for each run.
@propertyWrapper
public struct IntentParameter<Value: IntentValueConvertible>: @unchecked Sendable {
    final class Storage: @unchecked Sendable {
        let title: LocalizedStringResource
        let description: LocalizedStringResource?
        let defaultValue: Value?
        let requestValueDialog: IntentDialog?
        var value: Value?
        var name: String?

        init(
            title: LocalizedStringResource, description: LocalizedStringResource?, defaultValue: Value?,
            requestValueDialog: IntentDialog?
        ) {
            self.title = title
            self.description = description
            self.defaultValue = defaultValue
            self.requestValueDialog = requestValueDialog
            self.value = defaultValue
        }
    }

    let storage: Storage

    /// Declares a parameter.
    ///
    /// - Parameters:
    ///   - title: The parameter's name, as summaries and questions show it.
    ///   - description: What the parameter is for.
    ///   - default: The value used when none is given.
    ///   - requestValueDialog: The question asked when a value is needed and none was given.
    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default: Value? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        storage = Storage(
            title: title, description: description, defaultValue: `default`,
            requestValueDialog: requestValueDialog)
        ParameterCollector.record(self)
    }

    /// Declares a parameter with a default written as the property's initial value.
    public init(
        wrappedValue: Value, title: LocalizedStringResource, description: LocalizedStringResource? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(title: title, description: description, default: wrappedValue, requestValueDialog: requestValueDialog)
    }

    /// The parameter's value.
    public var wrappedValue: Value {
        get {
            if let value = storage.value { return value }
            if let absent = (Value.self as? any OptionalValue.Type)?.absent as? Value { return absent }
            fatalError("@Parameter '\(parameterName)' was read before it had a value; perform intents through IntentPerformer")
        }
        nonmutating set { storage.value = newValue }
    }

    /// The parameter itself, to ask for values and confirmations from `perform()`.
    public var projectedValue: IntentParameter<Value> { self }

    /// The parameter's title.
    public var title: LocalizedStringResource { storage.title }

    var parameterName: String { storage.name ?? storage.title.key }
}

/// The engine's untyped view of a `@Parameter` wrapper.
protocol AnyIntentParameter {
    var storageIdentity: ObjectIdentifier { get }
    var valueType: IntentValueType { get }
    var title: LocalizedStringResource { get }
    var parameterDescription: LocalizedStringResource? { get }
    var defaultIntentValue: IntentValue? { get }
    var requestValueDialog: IntentDialog? { get }
    var currentValue: IntentValue? { get }
    var hasValue: Bool { get }
    func assign(_ value: IntentValue) throws
    func assignName(_ name: String)
}

extension IntentParameter: AnyIntentParameter {
    var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
    var valueType: IntentValueType { Value.intentValueType }
    var parameterDescription: LocalizedStringResource? { storage.description }
    var defaultIntentValue: IntentValue? { storage.defaultValue.map(\.intentValue) }
    var requestValueDialog: IntentDialog? { storage.requestValueDialog }
    var currentValue: IntentValue? { storage.value.map(\.intentValue) }

    var hasValue: Bool {
        guard let value = storage.value else { return false }
        if let optional = value as? any OptionalValue { return !optional.isAbsent }
        return true
    }

    func assign(_ value: IntentValue) throws {
        storage.value = try Value(intentValue: value)
    }

    func assignName(_ name: String) {
        storage.name = name
    }
}

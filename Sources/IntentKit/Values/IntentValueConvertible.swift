import Foundation

/// A Swift type that converts to and from ``IntentValue``: every `@Parameter`,
/// `@Property` and returned value has one.
///
/// IntentKit provides the conformances of `String`, `Int`, `Double`, `Bool`, `Date`, `URL`,
/// `UUID`, ``IntentFile``, every ``AppEnum`` and ``AppEntity``, arrays, text-keyed dictionaries and
/// optionals of them, and ``IntentValue`` itself (any value).
///
/// ```swift
/// let value = 42.intentValue              // .int(42)
/// let number = try Int(intentValue: .string("42"))  // 42, after coercion
/// ```
public protocol IntentValueConvertible: Sendable {
    /// The type the engine uses to validate and coerce values.
    static var intentValueType: IntentValueType { get }
    /// This value as a dynamic value.
    var intentValue: IntentValue { get }
    /// Creates a value from a dynamic value, coercing it by the documented rules.
    ///
    /// - Throws: ``ValueConversionError`` when the value cannot become this type.
    init(intentValue: IntentValue) throws
}

/// Why a value could not be converted to the type a parameter or property needs.
public struct ValueConversionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The value's kind, as ``IntentValue/kindName`` prints it.
    public var valueKind: String
    /// The value as text.
    public var valueText: String
    /// The type that was needed.
    public var expectedType: String
    /// A hint on what would be accepted.
    public var hint: String?

    public init(value: IntentValue, expectedType: IntentValueType, hint: String? = nil) {
        self.valueKind = value.kindName
        self.valueText = value.displayText
        self.expectedType = expectedType.description
        self.hint = hint
    }

    public var description: String {
        var text = "cannot use \(valueKind) '\(valueText)' as \(expectedType)"
        if let hint { text += " (\(hint))" }
        return text
    }
}

extension String: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .string }
    public var intentValue: IntentValue { .string(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.string(from: intentValue)
    }
}

extension Int: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .int }
    public var intentValue: IntentValue { .int(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.int(from: intentValue)
    }
}

extension Double: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .double }
    public var intentValue: IntentValue { .double(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.double(from: intentValue)
    }
}

extension Bool: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .bool }
    public var intentValue: IntentValue { .bool(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.bool(from: intentValue)
    }
}

extension Date: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .date }
    public var intentValue: IntentValue { .date(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.date(from: intentValue)
    }
}

extension URL: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .url }
    public var intentValue: IntentValue { .url(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.url(from: intentValue)
    }
}

extension UUID: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .uuid }
    public var intentValue: IntentValue { .string(uuidString) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.uuid(from: intentValue)
    }
}

extension IntentFile: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .file }
    public var intentValue: IntentValue { .file(self) }
    public init(intentValue: IntentValue) throws {
        self = try ValueCoercion.file(from: intentValue)
    }
}

extension Array: IntentValueConvertible where Element: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .list(Element.intentValueType) }
    public var intentValue: IntentValue { .list(map(\.intentValue)) }
    public init(intentValue: IntentValue) throws {
        switch intentValue {
        case .list(let elements): self = try elements.map(Element.init(intentValue:))
        case .null: self = []
        default: self = [try Element(intentValue: intentValue)]
        }
    }
}

extension Dictionary: IntentValueConvertible where Key == String, Value: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .dictionary(Value.intentValueType) }
    public var intentValue: IntentValue { .dictionary(mapValues(\.intentValue)) }
    public init(intentValue: IntentValue) throws {
        switch intentValue {
        case .dictionary(let entries): self = try entries.mapValues(Value.init(intentValue:))
        case .null: self = [:]
        default: throw ValueConversionError(value: intentValue, expectedType: Self.intentValueType, hint: "write a mapping such as { name: value }")
        }
    }
}

/// Any value, as it comes: a parameter of this type takes lists, dictionaries, entities and
/// scalars alike, and the intent looks at what it got.
///
/// ```swift
/// @Parameter(title: "Value") var value: IntentValue
/// ```
extension IntentValue: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .any }
    public var intentValue: IntentValue { self }
    public init(intentValue: IntentValue) { self = intentValue }
}

extension Optional: IntentValueConvertible where Wrapped: IntentValueConvertible {
    public static var intentValueType: IntentValueType { .optional(Wrapped.intentValueType) }
    public var intentValue: IntentValue { map(\.intentValue) ?? .null }
    public init(intentValue: IntentValue) throws {
        if case .null = intentValue {
            self = .none
        } else {
            self = .some(try Wrapped(intentValue: intentValue))
        }
    }
}

/// Lets generic code recognise optionals and make an absent value of any optional type.
protocol OptionalValue {
    static var absent: Self { get }
    var isAbsent: Bool { get }
}

extension Optional: OptionalValue {
    static var absent: Self { .none }
    var isAbsent: Bool { self == nil }
}

import Foundation

/// The static type of a parameter, property or returned value, as the engine sees it.
///
/// Types print the way a Swift developer writes them, so error messages and
/// `shortcuts metadata` read naturally:
///
/// ```swift
/// IntentValueType.list(.string).description           // "[String]"
/// IntentValueType.optional(.date).description          // "Date?"
/// ```
public indirect enum IntentValueType: Sendable, Hashable, CustomStringConvertible {
    case bool
    case int
    case double
    case string
    case date
    case url
    case uuid
    case file
    case enumeration(EnumTypeReference)
    case entity(EntityTypeReference)
    case list(IntentValueType)
    /// A dictionary with text keys and values of one type, such as HTTP headers.
    case dictionary(IntentValueType)
    case optional(IntentValueType)
    /// A value of any kind (a dictionary, or a value whose type is not known statically).
    case any

    public var description: String {
        switch self {
        case .bool: "Bool"
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .date: "Date"
        case .url: "URL"
        case .uuid: "UUID"
        case .file: "File"
        case .enumeration(let reference): reference.name
        case .entity(let reference): reference.name
        case .list(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        case .optional(let wrapped): "\(wrapped)?"
        case .any: "Any"
        }
    }

    /// The type without its optionality.
    ///
    /// ```swift
    /// IntentValueType.optional(.int).nonOptional   // .int
    /// ```
    public var nonOptional: IntentValueType {
        if case .optional(let wrapped) = self { return wrapped.nonOptional }
        return self
    }

    /// Whether a value of this type may be absent.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// Whether values of this type are (or contain) entities, which resolve through queries.
    public var refersToEntities: Bool {
        switch self {
        case .entity: true
        case .list(let element), .optional(let element), .dictionary(let element): element.refersToEntities
        default: false
        }
    }

    /// The element type of a list type, or `nil` for other types.
    public var elementType: IntentValueType? {
        if case .list(let element) = nonOptional { return element }
        return nil
    }
}

/// Names an ``AppEnum`` type and gives access to its cases.
public struct EnumTypeReference: Sendable, Hashable {
    /// The Swift type name.
    public let name: String
    /// The Swift type.
    public let type: any AppEnum.Type

    init(_ type: any AppEnum.Type) {
        self.name = String(describing: type)
        self.type = type
    }

    public static func == (lhs: EnumTypeReference, rhs: EnumTypeReference) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}

/// Names an ``AppEntity`` type and gives access to its queries.
public struct EntityTypeReference: Sendable, Hashable {
    /// The Swift type name.
    public let name: String
    /// The Swift type.
    public let type: any AppEntity.Type

    init(_ type: any AppEntity.Type) {
        self.name = String(describing: type)
        self.type = type
    }

    public static func == (lhs: EntityTypeReference, rhs: EntityTypeReference) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}

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

/// Names an enum type and gives access to its cases: an ``AppEnum`` type, or an enum of a
/// hosted app (``IntentApp/init(hosted:host:)``), known by its metadata.
public struct EnumTypeReference: Sendable, Hashable {
    /// The type name (`Shelf`).
    public let name: String
    /// The Swift type, or `nil` for an enum of a hosted app.
    public let type: (any AppEnum.Type)?
    /// Where the cases come from.
    package let definition: Definition

    /// A Swift type or a hosted app's description.
    package enum Definition: Sendable {
        case swift(any AppEnum.Type)
        case hosted(HostedEnumType)
    }

    init(_ type: any AppEnum.Type) {
        self.name = String(describing: type)
        self.type = type
        self.definition = .swift(type)
    }

    package init(hosted: HostedEnumType) {
        self.name = hosted.name
        self.type = nil
        self.definition = .hosted(hosted)
    }

    public static func == (lhs: EnumTypeReference, rhs: EnumTypeReference) -> Bool {
        switch (lhs.definition, rhs.definition) {
        case (.swift(let left), .swift(let right)): ObjectIdentifier(left) == ObjectIdentifier(right)
        case (.hosted(let left), .hosted(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch definition {
        case .swift(let type): hasher.combine(ObjectIdentifier(type))
        case .hosted(let hosted): hasher.combine(hosted)
        }
    }
}

/// Names an entity type and gives access to its queries: an ``AppEntity`` type, or an entity
/// type of a hosted app (``IntentApp/init(hosted:host:)``), whose queries go to its host.
public struct EntityTypeReference: Sendable, Hashable {
    /// The type name (`BookEntity`).
    public let name: String
    /// The Swift type, or `nil` for an entity type of a hosted app.
    public let type: (any AppEntity.Type)?
    /// Where the entities come from.
    package let definition: Definition

    /// A Swift type or a hosted app's description.
    package enum Definition: Sendable {
        case swift(any AppEntity.Type)
        case hosted(HostedEntityType)
    }

    init(_ type: any AppEntity.Type) {
        self.name = String(describing: type)
        self.type = type
        self.definition = .swift(type)
    }

    package init(hosted: HostedEntityType) {
        self.name = hosted.name
        self.type = nil
        self.definition = .hosted(hosted)
    }

    public static func == (lhs: EntityTypeReference, rhs: EntityTypeReference) -> Bool {
        switch (lhs.definition, rhs.definition) {
        case (.swift(let left), .swift(let right)): ObjectIdentifier(left) == ObjectIdentifier(right)
        case (.hosted(let left), .hosted(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch definition {
        case .swift(let type): hasher.combine(ObjectIdentifier(type))
        case .hosted(let hosted): hasher.combine(hosted)
        }
    }
}

extension EnumTypeReference {
    /// The enum's cases, each with its raw value and its title in the current ``Localization``:
    /// the choices a form offers for a value of this type.
    ///
    /// ```swift
    /// if case .enumeration(let reference) = type { print(reference.cases.map(\.value)) }   // ["wantToRead", "read"]
    /// ```
    package var cases: [AppMetadata.EnumerationCase] {
        switch definition {
        case .swift(let type): type.caseList
        case .hosted(let hosted): hosted.metadata.cases
        }
    }
}

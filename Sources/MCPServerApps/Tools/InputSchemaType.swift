import Foundation
import MCP

/// The engine type of a value a JSON Schema describes, as MCP tools declare their inputs
/// and outputs.
///
/// | JSON Schema | type |
/// |---|---|
/// | `string` | `String` (`Date` with `"format": "date-time"`) |
/// | `string` with `enum` | an enum with those cases |
/// | `integer`, `number`, `boolean` | `Int`, `Double`, `Bool` |
/// | `array` | a list of the `items` type |
/// | `object` | `[String: Any]` |
/// | a type with `null`, or `anyOf` a type and `null` | that type, optional |
/// | anything else | `Any` |
///
/// ```swift
/// InputSchemaType(["type": "array", "items": ["type": "integer"]], definitions: [:]).typeName   // "[Int]"
/// ```
indirect enum InputSchemaType: Sendable, Hashable {
    case string
    case date
    case int
    case double
    case bool
    case enumeration(cases: [String])
    case list(InputSchemaType)
    case object
    case any
    case optional(InputSchemaType)

    /// Reads a schema; `$ref`s to `#/$defs/…` and `#/definitions/…` are followed in `definitions`.
    ///
    /// - Parameters:
    ///   - schema: The schema.
    ///   - definitions: The root schema's `$defs` and `definitions`, by name.
    init(_ schema: Value, definitions: [String: Value], depth: Int = 0) {
        guard depth < 16, case .object(let keywords) = schema else {
            self = .any
            return
        }
        if case .string(let reference)? = keywords["$ref"] {
            let name = reference.split(separator: "/").last.map(String.init) ?? reference
            self = definitions[name].map { InputSchemaType($0, definitions: definitions, depth: depth + 1) } ?? .any
            return
        }
        for combinator in ["anyOf", "oneOf"] {
            if case .array(let alternatives)? = keywords[combinator] {
                let nonNull = alternatives.filter { $0 != .object(["type": .string("null")]) }
                let inner = nonNull.count == 1 ? InputSchemaType(nonNull[0], definitions: definitions, depth: depth + 1) : .any
                self = nonNull.count < alternatives.count ? inner.optionalized : inner
                return
            }
        }
        if case .array(let allOf)? = keywords["allOf"], allOf.count == 1 {
            self = InputSchemaType(allOf[0], definitions: definitions, depth: depth + 1)
            return
        }
        var typeNames: [String] = []
        switch keywords["type"] {
        case .string(let name)?: typeNames = [name]
        case .array(let names)?: typeNames = names.compactMap(\.stringValue)
        default: break
        }
        let nullable = typeNames.contains("null")
        typeNames.removeAll { $0 == "null" }
        var base: InputSchemaType
        if case .array(let cases)? = keywords["enum"], !cases.isEmpty, cases.allSatisfy({ $0.stringValue != nil || $0 == .null }) {
            base = .enumeration(cases: cases.compactMap(\.stringValue))
        } else if typeNames.count != 1 {
            base = .any
        } else {
            switch typeNames[0] {
            case "string": base = keywords["format"]?.stringValue == "date-time" ? .date : .string
            case "integer": base = .int
            case "number": base = .double
            case "boolean": base = .bool
            case "array": base = .list(keywords["items"].map { InputSchemaType($0, definitions: definitions, depth: depth + 1) } ?? .any)
            case "object": base = .object
            default: base = .any
            }
        }
        self = nullable ? base.optionalized : base
    }

    /// The type made optional.
    var optionalized: InputSchemaType {
        if case .optional = self { return self }
        return .optional(self)
    }

    /// The type without its optionality.
    var nonOptional: InputSchemaType {
        if case .optional(let wrapped) = self { return wrapped.nonOptional }
        return self
    }

    /// The type as metadata names it, with `enumName` for an enum's type.
    ///
    /// - Parameter enumName: The name given to the enum this type holds, if any.
    /// - Returns: `String`, `[Int]`, `[String: Any]`, `Unit?`…
    func typeName(enumName: String? = nil) -> String {
        switch self {
        case .string: "String"
        case .date: "Date"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .enumeration: enumName ?? "String"
        case .list(let element): "[\(element.typeName(enumName: enumName))]"
        case .object: "[String: Any]"
        case .any: "Any"
        case .optional(let wrapped): wrapped.typeName(enumName: enumName) + "?"
        }
    }

    /// The enum cases this type holds (directly, in a list or optional), if any.
    var enumerationCases: [String]? {
        switch self {
        case .enumeration(let cases): cases
        case .list(let element), .optional(let element): element.enumerationCases
        default: nil
        }
    }

    /// The root schema's `$defs` and `definitions`, by name.
    static func definitions(of schema: Value) -> [String: Value] {
        guard case .object(let keywords) = schema else { return [:] }
        var definitions: [String: Value] = [:]
        for key in ["definitions", "$defs"] {
            if case .object(let entries)? = keywords[key] { definitions.merge(entries) { first, _ in first } }
        }
        return definitions
    }
}

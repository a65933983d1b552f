import Foundation
import IntentKit
import MCP

/// JSON Schemas of tool inputs, made from the type names that `shortcuts metadata` prints for
/// parameters and that workflows declare for their inputs.
///
/// | Type name | Schema |
/// |---|---|
/// | `String` (`text`) | `{"type": "string"}` |
/// | `Int` (`integer`), `Double` (`number`), `Bool` (`boolean`) | `integer`, `number`, `boolean` |
/// | `Date` | a string in the `date-time` format (a date alone, `2018-08-14`, is accepted too) |
/// | `URL`, `UUID`, `File` | a string (`uri`, `uuid`, a path) |
/// | `[T]` (`list`) | an array of `T` |
/// | `[String: T]` | an object whose values are `T` |
/// | an enum (`Library.Shelf`) | a string with the `enum` of its raw values |
/// | an entity (`Library.BookEntity`) | a string: the entity's identifier or title |
/// | `T?` | the schema of `T` (the input is then not required) |
/// | `Any` | any JSON value |
///
/// ```swift
/// let types = InputSchema(metadata: AppMetadata(catalog: catalog))
/// types.schema(forType: "Shelf", in: "Library")   // {"type": "string", "enum": ["currentlyReading", "wantToRead", "read"], …}
/// ```
struct InputSchema: Sendable {
    private var enums: [String: AppMetadata.Enumeration] = [:]
    private var entities: [String: AppMetadata.Entity] = [:]

    /// Learns the enums and entities of the installed apps, by full name (`Library.Shelf`) and,
    /// where only one app has it, by bare name (`Shelf`).
    ///
    /// - Parameter metadata: The installed apps' metadata.
    init(metadata: AppMetadata) {
        var bareEnums: [String: [AppMetadata.Enumeration]] = [:]
        var bareEntities: [String: [AppMetadata.Entity]] = [:]
        for app in metadata.apps {
            for enumeration in app.enums {
                enums[enumeration.name] = enumeration
                bareEnums[Self.bareName(enumeration.name), default: []].append(enumeration)
            }
            for entity in app.entities {
                entities[entity.name] = entity
                bareEntities[Self.bareName(entity.name), default: []].append(entity)
            }
        }
        for (name, candidates) in bareEnums where candidates.count == 1 && enums[name] == nil { enums[name] = candidates[0] }
        for (name, candidates) in bareEntities where candidates.count == 1 && entities[name] == nil { entities[name] = candidates[0] }
    }

    /// The schema of an intent's parameters, or of a workflow's inputs.
    ///
    /// - Parameter properties: Each input's name, schema, and whether it must be given.
    /// - Returns: An object schema with `properties` and `required`.
    static func object(_ properties: [(name: String, schema: Value, isRequired: Bool)]) -> Value {
        var object: [String: Value] = [
            "type": "object",
            "properties": .object(Dictionary(properties.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first }))
        ]
        let required = properties.filter(\.isRequired).map { Value.string($0.name) }
        if !required.isEmpty { object["required"] = .array(required) }
        return .object(object)
    }

    /// The schema of a value of a type.
    ///
    /// - Parameters:
    ///   - typeName: A type name, such as `String`, `[Int]`, `Date?` or `Library.BookEntity`.
    ///   - app: The app whose enums and entities a bare name refers to first.
    /// - Returns: The schema, as an object.
    func schema(forType typeName: String, in app: String? = nil) -> [String: Value] {
        var name = typeName.trimmingCharacters(in: .whitespaces)
        if name.hasSuffix("?") {
            name.removeLast()
            return schema(forType: name, in: app)
        }
        if name.hasPrefix("["), name.hasSuffix("]") {
            let inner = String(name.dropFirst().dropLast())
            if let colon = Self.topLevelColon(in: inner) {
                let valueType = String(inner[inner.index(after: colon)...])
                return ["type": "object", "additionalProperties": .object(schema(forType: valueType, in: app))]
            }
            return ["type": "array", "items": .object(schema(forType: inner, in: app))]
        }
        switch name {
        case "String", "Text", "text", "string": return ["type": "string"]
        case "Int", "Integer", "integer", "int": return ["type": "integer"]
        case "Double", "Number", "number", "double": return ["type": "number"]
        case "Bool", "Boolean", "boolean", "bool": return ["type": "boolean"]
        case "Date", "date":
            return [
                "type": "string", "format": "date-time",
                "description": "An ISO 8601 date and time (2018-08-14T09:30:00Z), or a date alone (2018-08-14)."
            ]
        case "URL", "url": return ["type": "string", "format": "uri"]
        case "UUID", "uuid": return ["type": "string", "format": "uuid"]
        case "File", "file": return ["type": "string", "description": "A file's path."]
        case "list": return ["type": "array"]
        case "Any", "any": return [:]
        default: break
        }
        if let enumeration = lookUp(name, in: app, among: enums) {
            let cases = enumeration.cases.map { "\($0.value) (\($0.title))" }.joined(separator: ", ")
            return [
                "type": "string", "enum": .array(enumeration.cases.map { .string($0.value) }),
                "description": "\(enumeration.title): \(cases)."
            ]
        }
        if let entity = lookUp(name, in: app, among: entities) {
            return ["type": "string", "description": "A \(entity.title) (\(entity.name)), given by its identifier or its title."]
        }
        return ["description": "A value of type \(typeName)."]
    }

    /// A parameter's default as JSON, from the text `shortcuts metadata` gives for it: an
    /// enum's case by raw value or title, a number, a truth value or text; `nil` when the text
    /// is not a value of the type (such as an empty list).
    ///
    /// - Parameters:
    ///   - text: The default as text (`Want to Read`, `3`, `true`).
    ///   - typeName: The parameter's type name.
    ///   - app: The app whose enums a bare name refers to first.
    /// - Returns: The default, or `nil`.
    func defaultValue(_ text: String, forType typeName: String, in app: String? = nil) -> Value? {
        let name = typeName.hasSuffix("?") ? String(typeName.dropLast()) : typeName
        if let enumeration = lookUp(name, in: app, among: enums) {
            return enumeration.cases.first { $0.value == text || $0.title == text }.map { .string($0.value) }
        }
        switch schema(forType: name, in: app)["type"]?.stringValue {
        case "string": return .string(text)
        case "integer": return Int(text).map(Value.int)
        case "number": return Double(text).map(Value.double)
        case "boolean": return Bool(text).map(Value.bool)
        default: return nil
        }
    }

    private func lookUp<Item>(_ name: String, in app: String?, among items: [String: Item]) -> Item? {
        if let app, let qualified = items[app + "." + name] { return qualified }
        return items[name]
    }

    private static func bareName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The `:` of a dictionary type (`String: [Int]`) outside nested brackets.
    private static func topLevelColon(in text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case ":" where depth == 0: return index
            default: break
            }
        }
        return nil
    }
}

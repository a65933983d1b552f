import Foundation
import IntentKit

/// The type names inputs and `ask` answers may declare.
package enum InputTypes {
    package static func type(named name: String, in catalog: IntentCatalog) -> IntentValueType? {
        var base = name
        var optional = false
        if base.hasSuffix("?") {
            base.removeLast()
            optional = true
        }
        var list = false
        if base.hasPrefix("["), base.hasSuffix("]") {
            base = String(base.dropFirst().dropLast())
            list = true
        }
        var type: IntentValueType?
        switch base {
        case "String", "Text", "text", "string": type = .string
        case "Int", "Integer", "integer", "int": type = .int
        case "Double", "Number", "number", "double": type = .double
        case "Bool", "Boolean", "boolean", "bool": type = .bool
        case "Date", "date": type = .date
        case "URL", "url": type = .url
        case "File", "file": type = .file
        case "Any", "any": type = .any
        case "list" where !list: type = .list(.any)
        default:
            if let entity = try? catalog.entity(named: base) { type = .entity(entity.reference) }
            for app in catalog.apps {
                if let enumType = app.enumTypes.first(where: { $0.name == base || app.name + "." + $0.name == base }) {
                    type = .enumeration(enumType)
                }
            }
        }
        guard var resolved = type else { return nil }
        if list { resolved = .list(resolved) }
        if optional { resolved = .optional(resolved) }
        return resolved
    }

    /// The names accepted as types, for "did you mean" hints.
    static let builtInNames = ["String", "Int", "Double", "Bool", "Date", "URL", "File", "Any"]

    /// The other spellings of the built-in types: `text`, `number`, `boolean`, `list`….
    static let aliases = [
        "Text", "text", "string", "Integer", "integer", "int", "Number", "number", "double", "Boolean", "boolean", "bool", "date", "url",
        "file", "any", "list"
    ]
}

extension InputTypes {
    /// The schema of a type name for the installed apps: a built-in name, an installed entity or
    /// enum, any of them in a list `[T]`, and optional with `?`.
    static func schema(for catalog: IntentCatalog) -> [String: Any] {
        var names = builtInNames + aliases + catalog.allEntities.map(\.name) + catalog.allEntities.map(\.reference.name)
        for app in catalog.apps {
            names += app.enumTypes.map { app.name + "." + $0.name }
        }
        let alternatives = names.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        return [
            "type": "string",
            "pattern": "^(\\[(\(alternatives))\\??\\]|\(alternatives))\\??$",
            "description": "A type name: " + names.joined(separator: ", ") + ", a list such as [String], and T? for optional."
        ]
    }
}

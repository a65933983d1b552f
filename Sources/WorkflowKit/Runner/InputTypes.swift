import Foundation
import IntentKit

/// The type names inputs and `ask` answers may declare.
enum InputTypes {
    static func type(named name: String, in catalog: IntentCatalog) -> IntentValueType? {
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
        case "String", "Text": type = .string
        case "Int", "Integer": type = .int
        case "Double", "Number": type = .double
        case "Bool", "Boolean": type = .bool
        case "Date": type = .date
        case "URL": type = .url
        case "File": type = .file
        case "Any": type = .any
        default:
            if let entity = try? catalog.entity(named: base) { type = entity.type.intentValueType }
            for app in catalog.apps {
                if let enumType = app.enums.first(where: { String(describing: $0) == base || app.qualifiedName(ofType: $0) == base }) {
                    type = enumType.intentValueType
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
}

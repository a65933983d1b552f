import Foundation

/// Checks JSON values against the JSON Schemas in `Schemas/`, for the keywords those schemas
/// use: `type`, `required`, `properties`, `additionalProperties`, `items`, `minItems`,
/// `maxItems`, `enum`, `const`, `minimum`, `anyOf` and `$ref` (to another file, relative to the
/// referring one, and to `#/$defs/…` inside a file).
///
/// ```swift
/// let problems = MessageSchemas.problems(in: result, against: "extension-protocol/initialize.result.schema.json")
/// ```
enum MessageSchemas {
    /// What in a value breaks a schema, one line each (empty when it conforms).
    ///
    /// - Parameters:
    ///   - value: A value as `JSONSerialization` reads it.
    ///   - file: The schema's path below `Schemas/`.
    static func problems(in value: Any, against file: String) -> [String] {
        let url = PackagePaths.file("Schemas/" + file)
        guard let schema = load(url) else { return ["\(file) cannot be read as JSON"] }
        var problems: [String] = []
        check(value, schema, file: url, document: schema, path: "$", problems: &problems)
        return problems
    }

    private static func load(_ url: URL) -> [String: Any]? {
        (try? Data(contentsOf: url)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    private static func check(
        _ value: Any, _ schema: [String: Any], file: URL, document: [String: Any], path: String, problems: inout [String]
    ) {
        if let reference = schema["$ref"] as? String {
            let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            var target = file
            var targetDocument = document
            if !parts[0].isEmpty {
                target = file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard let loaded = load(target) else {
                    problems.append("\(path): \(reference) cannot be read")
                    return
                }
                targetDocument = loaded
            }
            var resolved = targetDocument
            if parts.count > 1 {
                for key in parts[1].split(separator: "/") {
                    guard let next = resolved[String(key)] as? [String: Any] else {
                        problems.append("\(path): \(reference) does not resolve")
                        return
                    }
                    resolved = next
                }
            }
            check(value, resolved, file: target, document: targetDocument, path: path, problems: &problems)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as? String ?? ""]
            if !allowed.contains(where: { matches(value, type: $0) }) {
                problems.append("\(path): \(describe(value)) is not of type \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let constant = schema["const"], !same(value, constant) { problems.append("\(path): must be \(constant)") }
        if let cases = schema["enum"] as? [Any], !cases.contains(where: { same(value, $0) }) {
            problems.append("\(path): \(describe(value)) is not one of \(cases)")
        }
        if let minimum = schema["minimum"] as? Double, let number = value as? NSNumber, !isBoolean(value), number.doubleValue < minimum {
            problems.append("\(path): \(number) is less than \(minimum)")
        }
        if let alternatives = schema["anyOf"] as? [[String: Any]] {
            let passes = alternatives.contains { alternative in
                var found: [String] = []
                check(value, alternative, file: file, document: document, path: path, problems: &found)
                return found.isEmpty
            }
            if !passes { problems.append("\(path): matches none of anyOf") }
        }
        if let object = value as? [String: Any] {
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path): '\(name)' is missing")
            }
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for (name, member) in object {
                if let property = properties[name] {
                    check(member, property, file: file, document: document, path: "\(path).\(name)", problems: &problems)
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    check(member, additional, file: file, document: document, path: "\(path).\(name)", problems: &problems)
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): '\(name)' is not allowed")
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum { problems.append("\(path): fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum { problems.append("\(path): more than \(maximum) items") }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    check(item, items, file: file, document: document, path: "\(path)[\(index)]", problems: &problems)
                }
            }
        }
    }

    /// The class JSONSerialization makes `true` and `false` of, which no number has.
    private static let booleanType: ObjectIdentifier = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return ObjectIdentifier(type(of: parsed?.first as AnyObject))
    }()

    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return ObjectIdentifier(type(of: number)) == booleanType
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBoolean(value)
        case "integer":
            guard let number = value as? NSNumber, !isBoolean(value) else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return value is NSNumber && !isBoolean(value)
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    private static func same(_ value: Any, _ other: Any) -> Bool {
        (value as? NSObject)?.isEqual(other) == true && isBoolean(value) == isBoolean(other)
    }

    private static func describe(_ value: Any) -> String {
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
            return String(decoding: data.prefix(120), as: UTF8.self)
        }
        return "\(value)"
    }
}

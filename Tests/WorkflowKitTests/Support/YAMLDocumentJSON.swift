import Foundation
import Yams

@testable import WorkflowKit

/// Turns a workflow file into JSON the way the loader reads it (same expression shielding and
/// YAML core schema), so that a JSON Schema validator sees what the loader sees.
enum YAMLDocumentJSON {
    struct ConversionError: Error, CustomStringConvertible {
        let description: String
    }

    static func jsonData(fromYAML text: String) throws -> Data {
        switch YAMLComposer.compose(text, source: SourceText(text), file: "schema-check.yaml") {
        case .failure(let diagnostic):
            throw ConversionError(description: diagnostic.description)
        case .document(let root, let shield):
            let object = root.map { jsonObject($0, shield: shield) } ?? NSNull()
            return try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys])
        }
    }

    private static func jsonObject(_ node: Node, shield: ExpressionShield) -> Any {
        switch node {
        case .scalar(let scalar):
            let text = shield.restore(scalar.string)
            switch CoreSchemaResolver.tag(of: scalar) {
            case .null: return NSNull()
            case .bool: return text.lowercased() == "true"
            case .int: return Int(text).map { $0 as Any } ?? text
            case .float: return Double(text).flatMap { $0.isFinite ? $0 as Any : nil } ?? text
            default: return text
            }
        case .sequence(let sequence):
            return sequence.map { jsonObject($0, shield: shield) }
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            for (key, value) in mapping {
                object[shield.restore(key.string ?? "")] = jsonObject(value, shield: shield)
            }
            return object
        case .alias:
            return NSNull()
        }
    }
}

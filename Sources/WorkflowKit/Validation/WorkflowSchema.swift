import Foundation
import IntentKit

/// The JSON Schema of workflow files (`Schemas/workflow.schema.json`), and a version of it
/// specialised to the installed intents, so an editor completes intent names, their
/// parameters and entity names.
///
/// ```swift
/// let schema = try WorkflowSchema.specialized(for: catalog)   // JSON text
/// ```
public enum WorkflowSchema {
    /// The general schema's JSON text.
    ///
    /// The schema is compiled into the binary (`Resources/EmbeddedResources.swift`), so it needs
    /// no file beside the executable.
    ///
    /// - Throws: Never; kept so callers need not change when the schema is read from elsewhere.
    public static func general() throws -> String {
        WorkflowKitResources.files["workflow.schema.json"] ?? "{}"
    }

    /// The schema with `perform:` limited to the installed intents, each intent's `with:`
    /// limited to its parameters (required ones required), `find:` to the installed entities,
    /// and a search step's `entity:` to the installed indexed entities.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - search: Which entities can be searched; the one installed with ``WorkflowSearch/bootstrap(_:)`` when `nil`.
    /// - Returns: JSON text.
    /// - Throws: When the bundled schema cannot be read.
    public static func specialized(for catalog: IntentCatalog, search: (any WorkflowSearchProvider)? = nil) throws -> String {
        guard var schema = try JSONSerialization.jsonObject(with: Data(general().utf8)) as? [String: Any],
            var definitions = schema["$defs"] as? [String: Any],
            var perform = definitions["performStep"] as? [String: Any],
            var performProperties = perform["properties"] as? [String: Any],
            var find = definitions["findStep"] as? [String: Any],
            var findProperties = find["properties"] as? [String: Any],
            var searchStep = definitions["searchStep"] as? [String: Any],
            var searchProperties = searchStep["properties"] as? [String: Any]
        else { throw CocoaError(.fileReadCorruptFile) }
        let intents = catalog.allIntents
        performProperties["perform"] =
            [
                "enum": intents.map(\.name) + intents.map(\.definition.typeName),
                "description": "The intent to run."
            ] as [String: Any]
        perform["properties"] = performProperties
        perform["allOf"] = intents.map { intent -> [String: Any] in
            let parameters = intent.definition.parameters
            var properties: [String: Any] = [:]
            for parameter in parameters {
                var description = "\(parameter.title.key) (\(parameter.type))"
                if let value = parameter.defaultValue { description += ", default \(value.displayText)" }
                properties[parameter.name] = ["$ref": "#/$defs/value", "description": description]
            }
            var with: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
            let required = parameters.filter(\.isRequired).map(\.name)
            if !required.isEmpty { with["required"] = required }
            return [
                "if": ["properties": ["perform": ["enum": [intent.name, intent.definition.typeName]]], "required": ["perform"]],
                "then": ["properties": ["with": with]]
            ]
        }
        definitions["performStep"] = perform
        findProperties["find"] =
            [
                "enum": catalog.allEntities.map(\.name) + catalog.allEntities.map(\.reference.name),
                "description": "The entity type to find."
            ] as [String: Any]
        find["properties"] = findProperties
        definitions["findStep"] = find
        let provider: (any WorkflowSearchProvider)? = search ?? WorkflowSearch.provider(for: catalog)
        var indexed: [IntentCatalog.FoundEntity] = []
        for found in catalog.allEntities {
            if let provider, let type = found.type, provider.isSearchable(type) { indexed.append(found) }
        }
        searchProperties["entity"] =
            [
                "enum": indexed.map(\.name) + indexed.map(\.reference.name),
                "description": "Only results that stand for entities of this type; the output is then a list of those entities."
            ] as [String: Any]
        searchStep["properties"] = searchProperties
        definitions["searchStep"] = searchStep
        definitions["typeName"] = InputTypes.schema(for: catalog)
        schema["$defs"] = definitions
        schema["title"] = "Shortcuts workflow (installed intents)"
        let data = try JSONSerialization.data(withJSONObject: schema, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

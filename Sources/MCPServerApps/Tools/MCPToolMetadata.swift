import Foundation
import IntentKit
import MCP

/// The app an MCP server's tools make: one intent per tool, named `mcp.NAME.TOOL`, whose
/// parameters come from the tool's `inputSchema` (see ``InputSchemaType``) and whose title and
/// description come from the tool.
///
/// A string parameter with `enum` values gets an enum of its own (`ConvertUnit` for the
/// parameter `unit` of the tool `convert`), so that a workflow's literal is checked against
/// the allowed values before the run. Required properties are non-optional parameters; the
/// others are optional.
///
/// ```swift
/// let app = MCPToolMetadata.app(for: server, tools: tools)
/// app.name                  // "mcp.weather"
/// app.intents[0].name       // "mcp.weather.forecast"
/// ```
package enum MCPToolMetadata {
    /// The app of a server's tools.
    ///
    /// - Parameters:
    ///   - server: The server's configuration.
    ///   - tools: Its tools, as `tools/list` returned them.
    /// - Returns: The app's metadata.
    package static func app(for server: MCPServerConfiguration, tools: [Tool]) -> AppMetadata.App {
        var app = Blank.app
        app.name = server.appName
        app.locales = ["en"]
        var enumNames: Set<String> = []
        for tool in tools.sorted(by: { $0.name < $1.name }) {
            var intent = Blank.intent
            intent.name = server.appName + "." + tool.name
            intent.title = tool.title ?? tool.annotations.title ?? tool.name
            intent.description = tool.description
            intent.summary = intent.title
            let definitions = InputSchemaType.definitions(of: tool.inputSchema)
            let required = Set(tool.inputSchema.objectValue?["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let properties = tool.inputSchema.objectValue?["properties"]?.objectValue ?? [:]
            for name in propertyOrder(of: tool.inputSchema, properties: properties) {
                let schema = properties[name] ?? .null
                var type = InputSchemaType(schema, definitions: definitions)
                if !required.contains(name) { type = type.optionalized }
                var enumName: String?
                if let cases = type.enumerationCases {
                    let name = uniqueName(typeName(tool.name) + typeName(name), among: &enumNames)
                    var enumeration = Blank.enumeration
                    enumeration.name = server.appName + "." + name
                    enumeration.title = name
                    enumeration.cases = cases.map { value in
                        var enumerationCase = Blank.enumerationCase
                        enumerationCase.value = value
                        enumerationCase.title = value
                        return enumerationCase
                    }
                    app.enums.append(enumeration)
                    enumName = name
                }
                var parameter = Blank.parameter
                parameter.name = name
                parameter.title = schema.objectValue?["title"]?.stringValue ?? name
                parameter.type = type.typeName(enumName: enumName)
                parameter.isOptional = type.nonOptional != type
                parameter.isRequired = required.contains(name)
                if let defaultValue = schema.objectValue?["default"], defaultValue != .null {
                    parameter.defaultValue = defaultValue.stringValue ?? jsonText(defaultValue)
                }
                parameter.requestValueDialog = schema.objectValue?["description"]?.stringValue
                intent.parameters.append(parameter)
            }
            let valueType = resultType(of: tool)
            intent.result.valueType = valueType
            intent.result.type = "ReturnsValue<\(valueType)>"
            app.intents.append(intent)
        }
        return app
    }

    /// The type of a tool's value: from its `outputSchema` (unwrapped when the server wraps a
    /// plain value in `{"result": …}`), else `Any`, since the text content may be anything.
    static func resultType(of tool: Tool) -> String {
        guard let schema = tool.outputSchema else { return "Any" }
        let definitions = InputSchemaType.definitions(of: schema)
        if let wrapped = wrappedResultSchema(of: tool) {
            return InputSchemaType(wrapped, definitions: definitions).typeName(enumName: nil)
        }
        return InputSchemaType(schema, definitions: definitions).typeName(enumName: nil)
    }

    /// The schema of the plain value a server wraps as `{"result": value}` in its structured
    /// content: the Python SDK marks such schemas `"x-fastmcp-wrap-result": true` (1.x) or names
    /// them `TOOLOutput` with the one property `result` (2.x).
    static func wrappedResultSchema(of tool: Tool) -> Value? {
        guard let keywords = tool.outputSchema?.objectValue, let properties = keywords["properties"]?.objectValue else { return nil }
        let marked = keywords["x-fastmcp-wrap-result"] == .bool(true)
        let named = properties.count == 1 && keywords["title"] == .string(tool.name + "Output")
        return marked || named ? properties["result"] : nil
    }

    /// The properties in the schema's order when the server keeps it (`propertyOrder`), else by name.
    private static func propertyOrder(of schema: Value, properties: [String: Value]) -> [String] {
        if let order = schema.objectValue?["propertyOrder"]?.arrayValue?.compactMap(\.stringValue),
            Set(order) == Set(properties.keys)
        {
            return order
        }
        return properties.keys.sorted()
    }

    /// `convert_temperature` → `ConvertTemperature`.
    static func typeName(_ name: String) -> String {
        name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func uniqueName(_ name: String, among names: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while names.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        names.insert(candidate)
        return candidate
    }

    private static func jsonText(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Empty metadata values, filled in field by field.
    private enum Blank {
        static let app: AppMetadata.App = decode(#"{"name":"","locales":[],"intents":[],"entities":[],"enums":[],"shortcuts":[]}"#)
        static let intent: AppMetadata.Intent = decode(
            #"{"name":"","title":"","openAppWhenRun":false,"isDiscoverable":true,"summary":"","parameters":[],"#
                + #""result":{"type":"IntentResult","providesDialog":false,"showsSnippet":false}}"#)
        static let parameter: AppMetadata.Parameter = decode(#"{"name":"","title":"","type":"Any","isOptional":true,"isRequired":false}"#)
        static let enumeration: AppMetadata.Enumeration = decode(#"{"name":"","title":"","cases":[]}"#)
        static let enumerationCase: AppMetadata.EnumerationCase = decode(#"{"value":"","title":""}"#)

        private static func decode<Item: Decodable>(_ text: String) -> Item {
            // The texts above are fixed and match the types: decoding cannot fail.
            try! JSONDecoder().decode(Item.self, from: Data(text.utf8))
        }
    }
}

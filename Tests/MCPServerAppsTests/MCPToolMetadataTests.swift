import Foundation
import IntentKit
import MCP
import Testing

@testable import MCPServerApps

/// A server's tools as an app: parameters from the tools' input schemas.
@Suite("MCP tools as intents")
struct MCPToolMetadataTests {
    let server = MCPServerConfiguration(name: "weather", command: "python3")

    private func tool(_ name: String, _ schema: Value, output: Value? = nil, title: String? = nil) -> Tool {
        Tool(name: name, title: title, description: "Does \(name).", inputSchema: schema, outputSchema: output)
    }

    @Test func eachToolIsAnIntentNamedAfterTheServer() {
        let app = MCPToolMetadata.app(
            for: server, tools: [tool("shout", ["type": "object"]), tool("forecast", ["type": "object"], title: "Forecast")])
        #expect(app.name == "mcp.weather")
        #expect(app.intents.map(\.name) == ["mcp.weather.forecast", "mcp.weather.shout"])
        #expect(app.intents.map(\.title) == ["Forecast", "shout"])
        #expect(app.intents[0].description == "Does forecast.")
        #expect(app.intents[0].result.valueType == "Any")
    }

    @Test func schemaTypesBecomeParameterTypes() throws {
        let schema: Value = [
            "type": "object",
            "required": ["text", "count", "ratio", "flag", "tags", "options", "when", "anything"],
            "properties": [
                "text": ["type": "string", "title": "Text"],
                "count": ["type": "integer"],
                "ratio": ["type": "number"],
                "flag": ["type": "boolean"],
                "tags": ["type": "array", "items": ["type": "string"]],
                "options": ["type": "object"],
                "when": ["type": "string", "format": "date-time"],
                "anything": [:],
                "maybe": ["anyOf": [["type": "integer"], ["type": "null"]], "default": .null],
                "nullable": ["type": ["string", "null"]],
                "limit": ["type": "integer", "default": 5]
            ]
        ]
        let intent = try #require(MCPToolMetadata.app(for: server, tools: [tool("mix", schema)]).intents.first)
        let types = Dictionary(uniqueKeysWithValues: intent.parameters.map { ($0.name, $0.type) })
        #expect(
            types == [
                "text": "String", "count": "Int", "ratio": "Double", "flag": "Bool", "tags": "[String]", "options": "[String: Any]",
                "when": "Date", "anything": "Any", "maybe": "Int?", "nullable": "String?", "limit": "Int?"
            ])
        let text = try #require(intent.parameters.first { $0.name == "text" })
        #expect(text.title == "Text")
        #expect(text.isRequired && !text.isOptional)
        let limit = try #require(intent.parameters.first { $0.name == "limit" })
        #expect(!limit.isRequired && limit.isOptional)
        #expect(limit.defaultValue == "5")
    }

    @Test func aStringEnumBecomesAnEnumOfTheApp() throws {
        let schema: Value = [
            "type": "object",
            "properties": [
                "unit": ["type": "string", "enum": ["celsius", "fahrenheit"]],
                "units": ["type": "array", "items": ["$ref": "#/$defs/Unit"]]
            ],
            "$defs": ["Unit": ["type": "string", "enum": ["kelvin", "rankine"]]]
        ]
        let app = MCPToolMetadata.app(for: server, tools: [tool("convert_temperature", schema)])
        #expect(app.enums.map(\.name) == ["mcp.weather.ConvertTemperatureUnit", "mcp.weather.ConvertTemperatureUnits"])
        #expect(app.enums[0].cases.map(\.value) == ["celsius", "fahrenheit"])
        #expect(app.enums[1].cases.map(\.value) == ["kelvin", "rankine"])
        #expect(app.intents[0].parameters.map(\.type) == ["ConvertTemperatureUnit?", "[ConvertTemperatureUnits]?"])
    }

    @Test func theResultTypeComesFromTheOutputSchema() {
        let object = tool("forecast", ["type": "object"], output: ["type": "object", "properties": ["city": ["type": "string"]]])
        let wrapped = tool(
            "count", ["type": "object"], output: ["type": "object", "title": "countOutput", "properties": ["result": ["type": "integer"]]])
        let marked = tool(
            "tags", ["type": "object"],
            output: ["type": "object", "x-fastmcp-wrap-result": true, "properties": ["result": ["type": "array", "items": ["type": "string"]]]])
        let app = MCPToolMetadata.app(for: server, tools: [object, wrapped, marked])
        #expect(app.intents.map(\.result.valueType) == ["Int", "[String: Any]", "[String]"])
        #expect(app.intents[0].result.type == "ReturnsValue<Int>")
    }
}

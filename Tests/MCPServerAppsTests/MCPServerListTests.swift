import Foundation
import Testing

@testable import MCPServerApps

/// `mcp.json`: the servers it configures, and its problems at their line and column.
@Suite("MCP server configuration")
struct MCPServerListTests {
    @Test func readsServersInTheAssistantsShape() throws {
        let list = try MCPServerList.parse(
            """
            {
              "mcpServers": {
                "weather": {"command": "python3", "args": ["server.py", "--metric"], "env": {"UNITS": "metric"}},
                "notes": {"type": "stdio", "command": "/opt/notes/serve"}
              }
            }
            """, path: "mcp.json")
        #expect(list.servers.map(\.name) == ["weather", "notes"])
        #expect(list.servers[0].command == "python3")
        #expect(list.servers[0].arguments == ["server.py", "--metric"])
        #expect(list.servers[0].environment == ["UNITS": "metric"])
        #expect(list.servers[0].appName == "mcp.weather")
        #expect(list.servers[1].arguments.isEmpty)
    }

    @Test func aSyntaxErrorIsLocated() {
        let error = #expect(throws: MCPConfigurationError.self) {
            try MCPServerList.parse("{\n  \"mcpServers\": {\n    \"weather\": {\"command\": python3}\n  }\n}", path: "mcp.json")
        }
        #expect(error?.line == 3)
        #expect(error?.column == 28)
        #expect(error?.description == "mcp.json:3:28: error: unexpected 'python3': expected a value (strings are written in double quotes)")
    }

    @Test func aMissingCommaIsLocated() {
        let error = #expect(throws: MCPConfigurationError.self) {
            try MCPServerList.parse("{\"mcpServers\": {\"a\": {\"command\": \"x\" \"args\": []}}}", path: "mcp.json")
        }
        #expect(error?.line == 1)
        #expect(error?.column == 38)
        #expect(error?.message == "expected ',' or '}', found '\"'")
    }

    @Test func anUnknownKeyIsNamedWithTheKeyMeant() {
        let error = #expect(throws: MCPConfigurationError.self) {
            try MCPServerList.parse(
                """
                {"mcpServers": {
                  "weather": {"command": "python3", "arg": ["server.py"]}
                }}
                """, path: "/home/me/mcp.json")
        }
        #expect(error?.description == "/home/me/mcp.json:2:37: error: unknown key 'arg' in MCP server 'weather'\nhelp: did you mean 'args'?")
        #expect(error?.length == 5)
    }

    @Test func anUnknownTopLevelKeyIsNamed() {
        let error = #expect(throws: MCPConfigurationError.self) {
            try MCPServerList.parse(#"{"mcpserver": {}}"#, path: "mcp.json")
        }
        #expect(error?.message == "unknown key 'mcpserver' in the file")
        #expect(error?.help == "did you mean 'mcpServers'?")
    }

    @Test func wrongKindsAndMissingCommandAreReported() {
        let cases: [(String, String)] = [
            (#"{"mcpServers": {"a": {"command": "x", "args": "y"}}}"#, "'args' of MCP server 'a' must be an array of strings, found a string"),
            (#"{"mcpServers": {"a": {"command": "x", "args": [1]}}}"#, "'args' of MCP server 'a' must hold strings, found a number"),
            (#"{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}"#, "'env' variable 'K' of MCP server 'a' must be a string, found a number"),
            (#"{"mcpServers": {"a": {"args": []}}}"#, "MCP server 'a' has no 'command'"),
            (#"{"mcpServers": {"a.b": {"command": "x"}}}"#, "MCP server name 'a.b' can only have letters, digits, '-' and '_'"),
            (#"{"mcpServers": {"a": {"command": "x", "type": "http"}}}"#, "MCP server 'a' has a 'type' other than \"stdio\""),
            (#"[]"#, "expected an object with the key 'mcpServers', found an array")
        ]
        for (text, message) in cases {
            let error = #expect(throws: MCPConfigurationError.self) { try MCPServerList.parse(text, path: "mcp.json") }
            #expect(error?.message == message, "for \(text)")
        }
    }

    @Test func noFileMeansNoServers() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-none-\(UUID().uuidString)")
        #expect(try MCPServerList.load(environment: ["SHORTCUTS_HOME": home.path]).servers.isEmpty)
    }

    @Test func theFingerprintFollowsTheConfiguration() {
        let server = MCPServerConfiguration(name: "a", command: "x", arguments: ["1"], environment: ["K": "V"])
        var changed = server
        #expect(server.fingerprint == changed.fingerprint)
        #expect(server.fingerprint.count == 16)
        changed.arguments = ["2"]
        #expect(server.fingerprint != changed.fingerprint)
        changed = server
        changed.environment["K"] = "W"
        #expect(server.fingerprint != changed.fingerprint)
    }
}

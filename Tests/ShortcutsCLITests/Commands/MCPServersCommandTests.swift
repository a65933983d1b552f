import Foundation
import ShortcutsTestSupport
import Testing

/// `shortcuts mcp-servers add` and `remove` write `mcp.json` for the user, in process, without
/// starting a server (`--no-check`); starting one is the end-to-end suite's.
@Suite("mcp-servers add and remove")
struct MCPServersCommandTests {
    let shortcuts: InProcessShortcuts
    var file: URL { shortcuts.home.appendingPathComponent("mcp.json") }

    init() throws {
        shortcuts = try InProcessShortcuts()
    }

    private func text() -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    @Test("add writes the server's command, arguments and variables, readable by the owner alone, and list shows it")
    func add() async throws {
        let added = await shortcuts.run([
            "mcp-servers", "add", "--env", "UNITS=metric", "--env", "TOKEN=a=b", "--no-check", "weather", "python3", "/opt/weather/server.py",
            "--verbose"
        ])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output == "Added mcp.weather to \(file.path): python3 /opt/weather/server.py --verbose\n")
        #expect(
            text() == """
                {
                  "mcpServers": {
                    "weather": {
                      "command": "python3",
                      "args": ["/opt/weather/server.py", "--verbose"],
                      "env": {"TOKEN": "a=b", "UNITS": "metric"}
                    }
                  }
                }

                """)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let listed = await shortcuts.run(["mcp-servers", "list"])
        #expect(listed.output.hasPrefix("mcp.weather  python3 /opt/weather/server.py --verbose\n  tools not read yet"), "\(listed.output)")

        let second = await shortcuts.run(["mcp-servers", "add", "--no-check", "files", "--", "npx", "-y", "@example/files", "/srv"])
        #expect(second.status == 0, "\(second.error)")
        let both = await shortcuts.run(["mcp-servers", "list"])
        #expect(both.output.contains("mcp.weather  python3") && both.output.contains("mcp.files  npx -y @example/files /srv"), "\(both.output)")
        #expect(text().range(of: "\"weather\"")!.lowerBound < text().range(of: "\"files\"")!.lowerBound, "the servers keep their order")
    }

    @Test("A name taken is refused unless --replace, and nothing is written")
    func taken() async throws {
        #expect(await shortcuts.run(["mcp-servers", "add", "--no-check", "weather", "python3", "old.py"]).status == 0)
        let before = text()
        let refused = await shortcuts.run(["mcp-servers", "add", "--no-check", "weather", "python3", "new.py"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("error: an MCP server named 'weather' is configured already in \(file.path): python3 old.py"))
        #expect(refused.error.contains("help: replace it with --replace, or choose another name"))
        #expect(text() == before)
        let replaced = await shortcuts.run(["mcp-servers", "add", "--replace", "--no-check", "weather", "python3", "new.py"])
        #expect(replaced.status == 0, "\(replaced.error)")
        #expect(text().contains("new.py") && !text().contains("old.py"))
    }

    @Test("A bad name, no command, a variable without '=' and a malformed mcp.json are refused, the file untouched")
    func refused() async throws {
        let dotted = await shortcuts.run(["mcp-servers", "add", "--no-check", "my.server", "python3", "s.py"])
        #expect(dotted.status == 64)
        #expect(dotted.error.contains("error: MCP server name 'my.server' can only have letters, digits, '-' and '_'"), "\(dotted.error)")
        let bare = await shortcuts.run(["mcp-servers", "add", "--no-check", "weather"])
        #expect(bare.status == 64)
        #expect(bare.error.contains("error: give the command that starts the server after its name"), "\(bare.error)")
        let variable = await shortcuts.run(["mcp-servers", "add", "--env", "UNITS", "--no-check", "weather", "python3"])
        #expect(variable.status == 64)
        #expect(variable.error.contains("error: --env 'UNITS' is not NAME=VALUE"), "\(variable.error)")
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let malformed = "{\"mcpServers\": {\"old\": {\"comand\": \"x\"}}}\n"
        try malformed.write(to: file, atomically: true, encoding: .utf8)
        let located = await shortcuts.run(["mcp-servers", "add", "--no-check", "weather", "python3", "s.py"])
        #expect(located.status == 1)
        #expect(located.error.contains("\(file.path):1:25: error: unknown key 'comand' in MCP server 'old'"), "\(located.error)")
        #expect(text() == malformed, "nothing of a file that could not be read is lost")
    }

    @Test("remove takes a server out with its cached tools, and names the servers there are when the name is wrong")
    func remove() async throws {
        for name in ["weather", "files"] {
            #expect(await shortcuts.run(["mcp-servers", "add", "--no-check", name, "python3", "\(name).py"]).status == 0)
        }
        let cache = shortcuts.home.appendingPathComponent("mcp-tools")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try "{}".write(to: cache.appendingPathComponent("weather.json"), atomically: true, encoding: .utf8)
        let wrong = await shortcuts.run(["mcp-servers", "remove", "wether"])
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("help: did you mean 'weather'?"), "\(wrong.error)")
        let removed = await shortcuts.run(["mcp-servers", "remove", "weather"])
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output == "Removed mcp.weather from \(file.path)\n")
        #expect(!text().contains("weather") && text().contains("\"files\""))
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("weather.json").path))
    }
}

import Clockwork
import Foundation
import IntentKit
import MCP
import ShortcutsSystemTestSupport
import Testing

@testable import MCPServerApps

/// The engine as an MCP client of a real server written with the Python MCP SDK.
@Suite("MCP server connections", .serialized, .enabled(if: PythonMCPSDK.isAvailable, PythonMCPSDK.reason), .timeLimit(.minutes(1)))
struct MCPServerConnectionTests {
    private func request(_ tool: String, _ arguments: [String: IntentValue] = [:], interaction: any Interaction = NoInteraction())
        -> HostedIntentRequest
    {
        HostedIntentRequest(app: "mcp.weather", intent: tool, arguments: arguments, locale: "en", interaction: interaction)
    }

    private func host() async throws -> (MCPServerHost, MCPServerConnection) {
        let connection = try await MCPServerConnection.start(PythonMCPServer.configuration())
        let tools = try await connection.tools()
        return (MCPServerHost(server: connection.server, tools: tools, connection: connection), connection)
    }

    @Test func listsToolsAndCallsThem() async throws {
        let (host, connection) = try await host()
        #expect(host.tools.map(\.name).sorted() == ["crash", "explode", "forecast", "greet", "outlook", "shout", "stall"])

        let forecast = try await host.perform(
            request(
                "forecast", ["city": .string("Oslo"), "unit": .enumCase(.init(typeName: "ForecastUnit", rawValue: "fahrenheit", title: "fahrenheit"))]
            ))
        #expect(
            forecast.value
                == .dictionary(["city": .string("Oslo"), "temperature": .double(70.7), "unit": .string("fahrenheit"), "days": .int(1)]))

        let shout = try await host.perform(request("shout", ["text": .string("hello")]))
        #expect(shout.value == .string("HELLO!"))

        let failure = await #expect(throws: MCPServerConnectionError.self) {
            try await host.perform(request("explode", ["reason": .string("strike")]))
        }
        #expect(
            failure?.description
                == "tool 'explode' of MCP server 'weather' failed: Error executing tool explode: the forecast office is closed: strike")
        await host.stop()
        #expect(await ProcessGroupProbe.waitUntilGone(connection.processID).isEmpty)
    }

    @Test func overlappingCallsShareOneServer() async throws {
        let (host, connection) = try await host()
        let texts = (1...20).map { "call \($0)" }
        let results = try await withThrowingTaskGroup(of: (String, IntentValue?).self) { group in
            for text in texts {
                group.addTask { (text, try await host.perform(request("shout", ["text": .string(text)])).value) }
            }
            var results: [String: IntentValue?] = [:]
            for try await (text, value) in group { results[text] = value }
            return results
        }
        for text in texts { #expect(results[text] == .string(text.uppercased() + "!")) }
        #expect(connection.isRunning)
        await host.stop()
    }

    @Test func prepareStartsTheServerInTheBackgroundAndTheFirstCallUsesIt() async throws {
        let folder = try TemporaryFolder.make(prefix: "mcp-prepare")
        let spawnLog = folder.appendingPathComponent("spawns.log")
        func spawns() -> Int { ((try? String(contentsOf: spawnLog, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let (lister, listing) = try await host()
        await listing.stop()
        let host = MCPServerHost(server: PythonMCPServer.configuration(spawnLog: spawnLog), tools: lister.tools)

        host.prepare()
        host.prepare()
        try #require(try await eventually(watching: [.file(spawnLog)]) { spawns() == 1 })
        let shout = try await host.perform(request("shout", ["text": .string("ready")]))
        #expect(shout.value == .string("READY!"))
        host.prepare()
        let again = try await host.perform(request("shout", ["text": .string("still")]))
        #expect(again.value == .string("STILL!"))
        #expect(spawns() == 1)
        await host.stop()
    }

    @Test func aServerThatExitsFailsTheCallAndStartsAgainOnTheNextOne() async throws {
        let (host, connection) = try await host()
        let failure = await #expect(throws: MCPServerConnectionError.self) { try await host.perform(request("crash")) }
        #expect(failure?.description.hasPrefix("MCP server 'weather' exited with status 3 while calling 'crash'") == true)
        let again = try await host.perform(request("shout", ["text": .string("back")]))
        #expect(again.value == .string("BACK!"))
        #expect(await ProcessGroupProbe.waitUntilGone(connection.processID).isEmpty)
        await host.stop()
    }

    @Test func aResultOnALineOverTheLimitFailsTheCallNamingTheLimitAndTheServerStartsAgain() async throws {
        let (host, connection) = try await host()
        let text = String(repeating: "a", count: MCPServerProcess.lineLimit)
        let failure = await #expect(throws: MCPServerConnectionError.self) { try await host.perform(request("shout", ["text": .string(text)])) }
        #expect(
            failure?.description
                == "MCP server 'weather' wrote a line longer than the limit of 4 MiB while calling 'shout'; it was stopped and starts again on the next call"
        )
        #expect(await ProcessGroupProbe.waitUntilGone(connection.processID).isEmpty)
        let again = try await host.perform(request("shout", ["text": .string("back")]))
        #expect(again.value == .string("BACK!"))
        await host.stop()
    }

    @Test func aServerWritingALineWithoutEndIsStoppedAtTheLimit() async throws {
        // 5 MiB and no newline, then silence: the engine holds at most the limit and stops it.
        // The start's timeout is on a clock nobody moves, so only the limit can stop it.
        let server = MCPServerConfiguration(
            name: "flood", command: "/bin/sh", arguments: ["-c", "head -c 5242880 /dev/zero | tr '\\0' a; sleep 30"])
        let failure = await #expect(throws: MCPServerConnectionError.self) {
            try await MCPServerConnection.start(server, timeout: .seconds(20), clock: ManualClock())
        }
        #expect(
            failure?.description
                == "MCP server 'flood' wrote a line longer than the limit of 4 MiB while starting; it was stopped and starts again on the next call")
    }

    @Test func aHangingCallEndsWhenItsTaskIsCancelled() async throws {
        let (host, connection) = try await host()
        let started = ContinuousClock.now
        let call = Task { try await host.perform(request("stall")) }
        // Wall time: the Python server gives no sign that the call began; the cancel must come while it hangs.
        try await Task.sleep(for: .milliseconds(300))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(ContinuousClock.now - started < .seconds(5))
        // The server still answers other calls.
        #expect(try await host.perform(request("shout", ["text": .string("still")])).value == .string("STILL!"))
        await host.stop()
        #expect(await ProcessGroupProbe.waitUntilGone(connection.processID).isEmpty)
    }

    @Test func anElicitationIsAnsweredByTheCallsInteraction() async throws {
        let (host, _) = try await host()
        let answered = try await host.perform(request("greet", interaction: ScriptedInteraction(answers: ["name": "Ada"])))
        #expect(answered.value == .string("Hello, Ada!"))
        let headless = await #expect(throws: InteractionError.self) { try await host.perform(request("greet")) }
        #expect(headless?.description == "needs an answer but cannot ask: \"What is your name?\"")
        await host.stop()
    }

    @Test func aMissingProgramCannotStart() async throws {
        let server = MCPServerConfiguration(name: "ghost", command: "no-such-mcp-server-program")
        let failure = await #expect(throws: MCPServerConnectionError.self) { try await MCPServerConnection.start(server) }
        #expect(failure?.description == "MCP server 'ghost': cannot start 'no-such-mcp-server-program': no program of that name in PATH")
    }

    @Test func aProgramThatIsNoServerFailsWithItsStandardError() async throws {
        let server = MCPServerConfiguration(name: "broken", command: "/bin/sh", arguments: ["-c", "echo 'no such module' >&2; exit 2"])
        let failure = await #expect(throws: MCPServerConnectionError.self) { try await MCPServerConnection.start(server) }
        #expect(failure?.description == "MCP server 'broken' exited with status 2 while starting:\n  no such module")
    }

    @Test func aServerThatNeverAnswersIsStoppedWhenTheClockPassesTheStartTimeout() async throws {
        let home = try TemporaryFolder.make(prefix: "mcp-mute")
        defer { try? FileManager.default.removeItem(at: home) }
        let said = home.appendingPathComponent("said-waiting").path
        let server = MCPServerConfiguration(
            name: "mute", command: "/bin/sh", arguments: ["-c", "echo 'not JSON'; echo waiting >&2; : > \"$0\"; sleep 30", said])
        let clock = ManualClock()
        let start = clock.now()
        let starting = Task { try await MCPServerConnection.start(server, timeout: .seconds(1), clock: clock) }
        try await clock.waitForSleeper(deadline: start.adding(.seconds(1)))
        // The server has written to standard error before the time is up.
        try #require(try await eventually(watching: [.file(URL(fileURLWithPath: said))]) { FileManager.default.fileExists(atPath: said) })
        clock.advance(by: .seconds(1))
        let failure = await #expect(throws: MCPServerConnectionError.self) { try await starting.value }
        #expect(failure?.description == "MCP server 'mute' did not answer 'initialize' within 1 second:\n  waiting")
    }

    @Test func theToolListIsCachedForItsConfiguration() async throws {
        let home = try TemporaryFolder.make(prefix: "mcp-cache")
        let clock = ManualClock()
        let cache = MCPToolCache(environment: ["SHORTCUTS_HOME": home.path], clock: clock)
        let server = PythonMCPServer.configuration()
        #expect(cache.entry(for: server) == nil)
        let (tools, connection) = try await MCPServerApps.fetch(server, into: cache, environment: ProcessInfo.processInfo.environment)
        await connection.stop()
        #expect(cache.entry(for: server)?.tools == tools)
        #expect(cache.entry(for: server)?.fetched == clock.now(), "the entry is dated by the cache's clock")
        var changed = server
        changed.environment["UNITS"] = "metric"
        #expect(cache.entry(for: changed) == nil)
    }

    @Test func loadingReadsMissingToolListsOnceAndWarnsAboutBrokenServers() async throws {
        let home = try TemporaryFolder.make(prefix: "mcp-load")
        let spawnLog = home.appendingPathComponent("spawns.log")
        let server = PythonMCPServer.configuration(spawnLog: spawnLog)
        let configuration: [String: Any] = [
            "mcpServers": [
                "weather": ["command": server.command, "args": server.arguments, "env": server.environment],
                "ghost": ["command": "no-such-mcp-server-program"]
            ]
        ]
        try JSONSerialization.data(withJSONObject: configuration).write(to: home.appendingPathComponent("mcp.json"))
        let environment = ProcessInfo.processInfo.environment.merging(["SHORTCUTS_HOME": home.path]) { $1 }
        func spawns() -> Int { ((try? String(contentsOf: spawnLog, encoding: .utf8)) ?? "").split(separator: "\n").count }

        let first = try await MCPServerApps.load(environment: environment)
        #expect(first.apps.map(\.metadata.name) == ["mcp.weather"])
        #expect(
            first.warnings == [
                "MCP server 'ghost': cannot start 'no-such-mcp-server-program': no program of that name in PATH; its tools are left out"
            ])
        #expect(spawns() == 1)
        // The connection that read the tools serves the first call.
        let shout = try await first.apps[0].host.perform(request("shout", ["text": .string("once")]))
        #expect(shout.value == .string("ONCE!"))
        #expect(spawns() == 1)
        await first.apps[0].host.stop()

        let second = try await MCPServerApps.load(environment: environment)
        #expect(second.apps.first?.metadata == first.apps.first?.metadata)
        #expect(spawns() == 1, "the cached tools were used")
    }
}

import Foundation
import ShortcutsSystemTestSupport
import Testing

/// An MCP server written with the official Python MCP SDK, configured in `mcp.json` and used as
/// workflow steps by the `shortcuts` binary: structured results read by later steps, arguments
/// validated against the tools' input schemas, tool errors, crashes and interruptions, the
/// cached tool list, and no server left running.
@Suite("MCP servers as steps", .serialized, .enabled(if: PythonMCPSDK.isAvailable, PythonMCPSDK.reason), .timeLimit(.minutes(6)), .endToEnd)
struct MCPServerStepsTests {
    /// A fresh home whose `mcp.json` configures the test server, which logs each start.
    private struct Setup {
        let shortcuts: ShortcutsBinary
        let folder: URL
        let spawnLog: URL

        init() throws {
            shortcuts = try ShortcutsBinary()
            folder = try TemporaryFolder.make(prefix: "mcp-steps")
            spawnLog = folder.appendingPathComponent("spawns.log")
            try FileManager.default.createDirectory(at: shortcuts.home, withIntermediateDirectories: true)
            let configuration: [String: Any] = [
                "mcpServers": [
                    "weather": [
                        "command": PythonMCPSDK.python ?? "python3", "args": [PythonMCPSDK.weatherServer.path],
                        "env": ["WEATHER_SPAWN_LOG": spawnLog.path]
                    ]
                ]
            ]
            try JSONSerialization.data(withJSONObject: configuration, options: [.prettyPrinted, .sortedKeys])
                .write(to: shortcuts.home.appendingPathComponent("mcp.json"))
        }

        /// Writes a workflow into the folder.
        func workflow(_ name: String, _ yaml: String) throws -> String {
            let file = folder.appendingPathComponent(name + ".yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }

        func run(_ arguments: [String]) async throws -> ShortcutsBinary.Result {
            try await shortcuts.run(arguments, in: folder)
        }

        /// The process identifiers of the servers started so far.
        var spawns: [pid_t] {
            ((try? String(contentsOf: spawnLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        }

        /// The started servers still running.
        var leftovers: [pid_t] { spawns.filter(ProcessGroupProbe.isRunning) }
    }

    @Test func aLaterStepReadsAToolsStructuredResult() async throws {
        let setup = try Setup()
        let file = try setup.workflow(
            "forecast",
            """
            steps:
              - id: forecast
                perform: mcp.weather.forecast
                with: { city: Oslo, unit: fahrenheit, days: 3 }
              - id: loud
                perform: mcp.weather.shout
                with: { text: "${forecast.city} ${forecast.temperature} for ${forecast.days} days" }
            output: ${loud}
            """)
        let result = try await setup.run(["run", file])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "OSLO 70.7 FOR 3 DAYS!")
        #expect(setup.spawns.count == 1, "one server for the whole run")
        #expect(setup.leftovers.isEmpty, "still running: \(setup.leftovers)")
    }

    @Test func aPlainDictionaryWithoutStructuredContentIsReadByKey() async throws {
        let setup = try Setup()
        let file = try setup.workflow(
            "outlook",
            """
            steps:
              - id: outlook
                perform: mcp.weather.outlook
                with: { city: Oslo }
            output: "${outlook.city}: ${outlook.summary} for ${count(outlook.days)} days"
            """)
        #expect(try await setup.run(["validate", file]).status == 0)
        let result = try await setup.run(["run", file])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "Oslo: sunny spells for 3 days")
    }

    @Test func addStartsTheServerAndCachesItsToolsAndKeepsOneThatDoesNotStart() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let python = PythonMCPSDK.python ?? "python3"
        let added = try await shortcuts.run(["mcp-servers", "add", "weather", python, PythonMCPSDK.weatherServer.path])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.contains("mcp.weather: 7 tools (started and answered in "), "\(added.output)")
        let listed = try await shortcuts.run(["mcp-servers", "list"])
        #expect(listed.output.contains("7 tools: crash, explode, forecast, greet, outlook, shout, stall"), "\(listed.output)")
        let called = try await shortcuts.run(["perform", "mcp.weather.shout", "text=added"])
        #expect(called.output.contains("ADDED!"), "\(called.error)")

        let broken = try await shortcuts.run(["mcp-servers", "add", "broken", python, "-c", "import sys; sys.exit(3)"])
        #expect(broken.status == 1)
        #expect(broken.error.contains("error: mcp.broken was added, but "), "\(broken.error)")
        #expect(broken.error.contains("help: fix its command and check it again: shortcuts mcp-servers check broken"), "\(broken.error)")
        let kept = try await shortcuts.run(["mcp-servers", "list"])
        #expect(kept.output.contains("mcp.broken  \(python) -c"), "kept to be fixed: \(kept.output)")
    }

    @Test(.enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the test extension"))
    func serversJoinTheExtensionsAndTheBuiltInApps() async throws {
        let setup = try Setup()
        let tester = try TestExtension.install()
        #expect(try await setup.run(["extensions", "add", tester.path]).status == 0)
        let intents = try await setup.run(["list", "intents"])
        for name in ["mcp.weather.shout", "Tester.Echo", "Library.AddBook"] {
            #expect(intents.output.contains(name), "\(name) is listed: \(intents.output)")
        }
        let echoed = try await setup.run(["perform", "Tester.Echo", "text=both"])
        #expect(echoed.status == 0 && echoed.output.contains("Echoed both"), "\(echoed.error)")
    }

    @Test func performCallsAToolFromTheCommandLine() async throws {
        let setup = try Setup()
        let result = try await setup.run(["perform", "mcp.weather.shout", "text=hello"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("HELLO!"))
        #expect(setup.leftovers.isEmpty)
    }

    @Test func validateChecksArgumentsAgainstTheInputSchemaWithoutStartingTheServer() async throws {
        let setup = try Setup()
        _ = try await setup.run(["mcp-servers", "refresh"])
        let started = setup.spawns.count
        let file = try setup.workflow(
            "misspelled",
            """
            steps:
              - perform: mcp.weather.forecast
                with: { citty: Oslo }
              - perform: mcp.weather.forecast
                with: { city: Oslo, days: many }
              - perform: mcp.weather.forecast
                with: { city: Oslo, unit: kelvin }
            """)
        let result = try await setup.run(["validate", file])
        #expect(result.status == 1)
        #expect(result.error.contains("misspelled.yaml:3:13: error: unknown parameter 'citty'"), "\(result.error)")
        #expect(result.error.contains("help: did you mean 'city'?"))
        #expect(result.error.contains("^~~~~"))
        #expect(result.error.contains("misspelled.yaml:5:31: error: parameter 'days' needs Int"), "a text where an Int is expected: \(result.error)")
        #expect(
            result.error.contains(
                "misspelled.yaml:7:31: error: parameter 'unit' needs ForecastUnit: cannot use String 'kelvin' as ForecastUnit (one of celsius, fahrenheit)"
            ))
        #expect(setup.spawns.count == started, "validate used the cached tools")
    }

    @Test func aFailingToolFailsTheStepWithItsMessage() async throws {
        let setup = try Setup()
        let file = try setup.workflow(
            "explode",
            """
            steps:
              - perform: mcp.weather.explode
                with: { reason: strike }
              - perform: mcp.weather.shout
                with: { text: never }
            """)
        let result = try await setup.run(["run", file])
        #expect(result.status == 1)
        #expect(result.error.contains("the forecast office is closed: strike"), "\(result.error)")
        #expect(!result.output.contains("NEVER"))
        #expect(setup.leftovers.isEmpty)
    }

    @Test func aServersQuestionIsAnsweredWithAnswerOrFailsWithTheQuestion() async throws {
        let setup = try Setup()
        let answered = try await setup.run(["perform", "mcp.weather.greet", "--answer", "name=Ada"])
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.contains("Hello, Ada!"))
        let headless = try await setup.run(["perform", "mcp.weather.greet"])
        #expect(headless.status == 1)
        #expect(headless.error.contains("needs an answer but cannot ask: \"What is your name?\""), "\(headless.error)")
        #expect(headless.error.contains("help: pass --answer name=VALUE"))
        #expect(setup.leftovers.isEmpty)
    }

    @Test func aServerThatCrashesFailsTheStepAndTheNextRunWorks() async throws {
        let setup = try Setup()
        let file = try setup.workflow("crash", "steps:\n  - perform: mcp.weather.crash\n")
        let crashed = try await setup.run(["run", file])
        #expect(crashed.status == 1)
        #expect(crashed.error.contains("MCP server 'weather' exited with status 3 while calling 'crash'"), "\(crashed.error)")
        let again = try await setup.run(["perform", "mcp.weather.shout", "text=again"])
        #expect(again.output.contains("AGAIN!"), "\(again.error)")
        #expect(setup.leftovers.isEmpty)
    }

    @Test func anInterruptedRunStopsAHangingServer() async throws {
        let setup = try Setup()
        _ = try await setup.run(["mcp-servers", "refresh"])
        let file = try setup.workflow("stall", "steps:\n  - perform: mcp.weather.stall\n")
        let process = try setup.shortcuts.start(["run", file])
        // Until the server has begun the call that never answers.
        let stalling = try await eventually(watching: [.file(setup.spawnLog), .exit(process.pid)]) {
            ((try? String(contentsOf: setup.spawnLog, encoding: .utf8)) ?? "").contains("stalling\n")
        }
        #expect(stalling, "the stalling call never began: \(process.errorSoFar)")
        process.signal(SIGINT)
        // Interrupted, not finished: the call answers only after a minute.
        let result = try await process.finish()
        #expect(result.status == 130)
        #expect(result.seconds < 55, "the run waited for the call to answer")
        for server in setup.spawns { #expect(await ProcessGroupProbe.waitUntilGone(server).isEmpty) }
    }

    @Test func aDaemonStartsAServerOnceForAllItsRuns() async throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(at: setup.folder.appendingPathComponent("Workflows"), withIntermediateDirectories: true)
        let inbox = setup.folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        _ = try setup.workflow(
            "Workflows/shout-drop",
            """
            input:
              file: File
            automation:
              watch: { path: ../inbox, debounce: 100ms }
            steps:
              - id: loud
                perform: mcp.weather.shout
                with: { text: "${input.file.name}" }
            output: ${loud}
            """)
        let daemon = try DaemonProcess.start(setup.shortcuts, folder: setup.folder.appendingPathComponent("Workflows").path, grace: "2s")
        try await daemon.waitForLog("watching \(inbox.path)")
        @Sendable func outputs() async throws -> [String] {
            let listed = try await setup.shortcuts.run(["runs", "list", "--json", "--trigger", "file"])
            let runs = (try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]) ?? []
            return runs.filter { $0["status"] as? String == "succeeded" }.compactMap { $0["output"] as? String }
        }
        for (count, name) in ["first.txt", "second.txt"].enumerated() {
            try await ShellWriter.write("drop", to: inbox.appendingPathComponent(name))
            let ran = try await eventually(watching: [.folder(setup.shortcuts.home), .exit(daemon.pid)]) {
                try await outputs().count == count + 1
            }
            #expect(ran, "run \(count + 1) did not succeed\n\(daemon.log)")
        }
        #expect(try await outputs().sorted() == ["FIRST.TXT!", "SECOND.TXT!"])
        #expect(setup.spawns.count == 1, "each run started the server again: \(setup.spawns)\n\(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        for server in setup.spawns { #expect(await ProcessGroupProbe.waitUntilGone(server).isEmpty) }
    }

    @Test func listUsesTheCachedToolsAndStartsNoServer() async throws {
        let setup = try Setup()
        let first = try await setup.run(["list"])
        #expect(first.output.contains("mcp.weather.forecast"), "\(first.error)")
        #expect(setup.spawns.count == 1, "the tools are read once, on first use")
        let listed = try await setup.run(["list"])
        #expect(listed.output.contains("mcp.weather.forecast"))
        let servers = try await setup.run(["mcp-servers", "list"])
        #expect(servers.output.contains("7 tools: crash, explode, forecast, greet, outlook, shout, stall"))
        #expect(setup.spawns.count == 1, "later starts used the cache")
        #expect(setup.leftovers.isEmpty)
    }

    @Test func aMalformedConfigurationIsAWarningThatNamesTheKey() async throws {
        let setup = try Setup()
        try #"{"mcpServers": {"weather": {"comand": "python3"}}}"#.write(
            to: setup.shortcuts.home.appendingPathComponent("mcp.json"), atomically: true, encoding: .utf8)
        let listed = try await setup.run(["list"])
        #expect(listed.status == 0)
        #expect(listed.error.contains("unknown key 'comand' in MCP server 'weather'"), "\(listed.error)")
        let checked = try await setup.run(["mcp-servers", "check", "weather"])
        #expect(checked.status == 1)
        #expect(checked.error.contains("mcp.json:1:29: error: unknown key 'comand' in MCP server 'weather'"), "\(checked.error)")
        #expect(checked.error.contains("help: did you mean 'command'?"))
    }
}

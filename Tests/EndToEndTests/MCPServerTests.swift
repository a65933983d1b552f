import Foundation
import Testing

/// `shortcuts mcp` driven by a client written with the official Python MCP SDK
/// (`Fixtures/mcp/client.py`), which starts the real binary as its server.
@Suite(
    .enabled(if: PythonMCP.available, "needs python3 with the MCP SDK: python3 -m pip install mcp"),
    .serialized, .timeLimit(.minutes(6)), .endToEnd)
struct MCPServerTests {
    @Test func listsIntentsWithSchemasFromTheirParameters() async throws {
        let shortcuts = try ShortcutsBinary()
        let report = try PythonMCP.session(shortcuts: shortcuts, calls: [], listTools: true)
        let tools = report.tools
        let metadata = try JSONSerialization.jsonObject(with: Data(try await shortcuts.run(["view", "Library.AddBook", "--json"]).output.utf8))
        let described = (metadata as? [String: Any])?["description"] as? String
        let addBook = try #require(tools["Library_AddBook"])
        #expect(addBook["title"] as? String == "Add Book")
        // The description, else the parameter summary (`Add ${title}`) as a sentence.
        #expect(addBook["description"] as? String == described ?? "Add title")
        let schema = try #require(addBook["inputSchema"] as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(schema["type"] as? String == "object")
        #expect(schema["required"] as? [String] == ["title"])
        #expect(properties["title"]?["type"] as? String == "string")
        #expect(properties["shelf"]?["enum"] as? [String] == ["currentlyReading", "wantToRead", "read"])
        #expect(properties["shelf"]?["default"] as? String == "wantToRead")
        #expect(Set(properties.keys) == ["title", "authorName", "recommendedBy", "shelf"])
        let openBook = try #require(tools["Library_OpenBook"]?["inputSchema"] as? [String: Any])
        let book = try #require((openBook["properties"] as? [String: [String: Any]])?["book"])
        #expect(book["type"] as? String == "string")
        #expect((book["description"] as? String)?.contains("by its identifier or its title") == true)
        #expect(report.serverName == "shortcuts")
    }

    @Test func callingAnIntentGivesTheValueAsStructuredContentAndTheDialogAsText() throws {
        let report = try PythonMCP.session(calls: [("Library_AddBook", ["title": "Cry of the Kalahari"])])
        let result = try #require(report.results.first)
        #expect(result.isError == false)
        let book = try #require(result.structured)
        #expect(book["type"] as? String == "BookEntity")
        #expect(book["title"] as? String == "Cry of the Kalahari")
        #expect((book["properties"] as? [String: Any])?["author"] as? String == "Delia Owens")
        #expect(result.texts.prefix(2) == ["Added Cry of the Kalahari to Library!", "Opened Cry of the Kalahari."])
    }

    @Test func dialogsAndTitlesFollowTheLocale() throws {
        let report = try PythonMCP.session(arguments: ["--locale", "ja"], calls: [("Library_AddBook", ["title": "Emma"])], listTools: true)
        #expect(report.results.first?.texts.first == "Emmaをライブラリに追加しました！")
        #expect(report.tools["Library_AddBook"]?["title"] as? String != "Add Book")
    }

    @Test func aValueThatIsNotAnObjectIsWrapped() throws {
        let report = try PythonMCP.session(calls: [("Math_Calculate", ["first": 6, "second": 7, "operation": "multiply"])], allow: ["Math_*"])
        let result = try #require(report.results.first)
        #expect(result.isError == false, "\(result.texts)")
        #expect(result.structured?["value"] as? Int == 42)
    }

    @Test func callingAWorkflowRunsItWithItsInputsAndRecordsTheRun() async throws {
        let folder = try TemporaryFolder.make(prefix: "shortcuts-mcp-workflows")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TemporaryFolder.write(
            [
                "greet.yaml": """
                name: Greet
                description: Greets someone a number of times.
                input:
                  who: { type: String, description: Whom to greet }
                  times: { type: Int, default: 1 }
                steps:
                  - show: "Hello, ${input.who}!"
                output: { who: "${input.who}", times: "${input.times * 2}" }
                """
            ], in: folder)
        let shortcuts = try ShortcutsBinary()
        let report = try PythonMCP.session(
            shortcuts: shortcuts, arguments: ["--workflows", folder.path], calls: [("workflow_greet", ["who": "Ada", "times": 2])],
            listTools: true)
        let schema = try #require(report.tools["workflow_greet"]?["inputSchema"] as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["who"]?["type"] as? String == "string")
        #expect(properties["who"]?["description"] as? String == "Whom to greet")
        #expect(properties["times"]?["type"] as? String == "integer")
        #expect(schema["required"] as? [String] == ["who"])
        #expect(report.tools["workflow_greet"]?["description"] as? String == "Greets someone a number of times.")
        let result = try #require(report.results.first)
        #expect(result.isError == false, "\(result.texts)")
        #expect(result.structured?["who"] as? String == "Ada")
        #expect(result.structured?["times"] as? Int == 4)
        #expect(result.texts.first == "Hello, Ada!")
        let runs = try await shortcuts.run(["runs", "--json"])
        #expect(runs.output.contains("\"trigger\" : \"mcp\"") || runs.output.contains("\"trigger\":\"mcp\""), "\(runs.output)")
    }

    @Test func aQuestionBecomesAnElicitation() throws {
        let report = try PythonMCP.session(calls: [("Library_AddBook", ["title": "Nemesis"])], elicitation: ["authorName": "Asimov"])
        let result = try #require(report.results.first)
        #expect(result.isError == false, "\(result.texts)")
        #expect(result.texts.first == "Added Nemesis to Library!")
        #expect((result.structured?["properties"] as? [String: Any])?["author"] as? String == "Isaac Asimov")
        let asked = try #require(report.elicitations.first)
        #expect(asked["message"] as? String == "Who wrote the book?")
        let field = ((asked["requestedSchema"] as? [String: Any])?["properties"] as? [String: [String: Any]])?["authorName"]
        #expect(field?["type"] as? String == "string")
    }

    @Test func aWorkflowsQuestionsAreElicitationsAndADeclinedAskTakesItsDefault() throws {
        let workflows = ["--workflows", PackagePaths.file("Workflows").path]
        let answered = try PythonMCP.session(
            arguments: workflows, calls: [("workflow_shelf-menu", [:])], elicitation: ["next": "Open what I want to read"])
        #expect(answered.results.first?.structured?["value"] as? String == "shelf: wantToRead")
        #expect(answered.elicitations.first?["message"] as? String == "What next?")
        let declined = try PythonMCP.session(arguments: workflows, calls: [("workflow_finish-book", [:])], elicitation: ["$action": "decline"])
        #expect(declined.results.first?.isError == false)
        #expect(declined.results.first?.texts.contains("Emma is now on the Read shelf, read 2026-01-15") == true, "\(declined.calls)")
        #expect(declined.results.first?.structured?["value"] as? String == "read")
        let headless = try PythonMCP.session(arguments: workflows, calls: [("workflow_shelf-menu", [:])])
        #expect(headless.results.first?.isError == true)
        let message = try #require(headless.results.first?.texts.first)
        #expect(message.contains("error: this menu needs a choice, but the run cannot ask\n    6 |     menu: What next?"), "\(message)")
        #expect(!message.contains("--answer"))
    }

    @Test func aConfirmationDeclinedFailsTheCall() throws {
        let report = try PythonMCP.session(calls: [("Library_AddBook", ["title": "crawdads"])], elicitation: ["$action": "decline"])
        let result = try #require(report.results.first)
        #expect(result.isError == true)
        #expect(result.texts == ["Library.AddBook failed: No book called crawdads is in the catalog."])
        #expect(report.elicitations.first?["message"] as? String == "Did you mean Where the Crawdads Sing by Delia Owens?")
    }

    @Test func withoutElicitationAQuestionFailsTheCallQuotingIt() throws {
        let report = try PythonMCP.session(calls: [("Library_AddBook", ["title": "Nemesis"])])
        let result = try #require(report.results.first)
        #expect(result.isError == true)
        #expect(result.texts == ["Library.AddBook needs an answer but cannot ask: \"Who wrote the book?\""])
        #expect(report.elicitations.isEmpty)
    }

    @Test func shellFilesWebAndClipboardActionsAreServedOnlyWhenAllowedByName() throws {
        let guarded = ["Shell_", "Files_", "Web_", "Clipboard_"]
        let byDefault = try PythonMCP.session(calls: [("Shell_RunScript", ["script": "echo hi"])], listTools: true)
        #expect(!byDefault.tools.keys.contains { name in guarded.contains { name.hasPrefix($0) } })
        #expect(byDefault.tools.keys.contains("Text_ChangeCase"))
        #expect((byDefault.calls.first?["error"] as? String)?.contains("Unknown tool: Shell_RunScript") == true)

        // Patterns that match them without naming their app before a wildcard do not serve them.
        let everything = try PythonMCP.session(calls: [], allow: ["*", "Sh*", "*_RunScript", "?iles_*"], listTools: true)
        #expect(!everything.tools.keys.contains { name in guarded.contains { name.hasPrefix($0) } })

        let shell = try PythonMCP.session(
            calls: [("Shell_RunScript", ["script": "echo hi from the shell"])], allow: ["Shell_*"], listTools: true)
        #expect(!shell.tools.isEmpty && shell.tools.keys.allSatisfy { $0.hasPrefix("Shell_") })
        #expect(shell.results.first?.isError == false)
        #expect(shell.results.first?.texts.last?.contains("hi from the shell") == true)

        let denied = try PythonMCP.session(calls: [], allow: ["*", "Shell_*"], deny: ["Library_*", "Shell_RunScript"], listTools: true)
        #expect(denied.tools.keys.contains("Text_ChangeCase"))
        #expect(denied.tools.keys.contains { $0.hasPrefix("Shell_") })
        #expect(!denied.tools.keys.contains("Shell_RunScript"))
        #expect(!denied.tools.keys.contains { $0.hasPrefix("Library_") })
    }
}

/// `shortcuts mcp`'s command line, before any client connects.
@Suite(.endToEnd)
struct MCPCommandTests {
    @Test func aMissingWorkflowsFolderIsNamed() async throws {
        let result = try await ShortcutsBinary().run(["mcp", "--workflows", "no-such-folder"])
        #expect(result.status == 1)
        #expect(
            result.error == "error: cannot read --workflows no-such-folder: it is not a folder\nhelp: give the folder that holds the workflow files\n"
        )
        #expect(result.output.isEmpty)
    }
}

/// Runs `Fixtures/mcp/client.py` with the official Python MCP SDK against the built binary.
enum PythonMCP {
    /// Whether python3 can import the `mcp` package (or must, under `SHORTCUTS_TESTS_REQUIRE_ALL=1`).
    static let available: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import mcp.client.stdio"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return SystemComponents.isRequired }
        process.waitUntilExit()
        return process.terminationStatus == 0 || SystemComponents.isRequired
    }()

    /// What a session saw.
    struct Report {
        var object: [String: Any]
        var serverName: String? { (object["server"] as? [String: Any])?["name"] as? String }
        /// The listed tools by name.
        var tools: [String: [String: Any]] {
            Dictionary(((object["tools"] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { $1 })
        }
        /// Each call's result, or its protocol error under "error".
        var calls: [[String: Any]] { object["calls"] as? [[String: Any]] ?? [] }
        var results: [CallResult] { calls.compactMap { ($0["result"] as? [String: Any]).map(CallResult.init) } }
        var elicitations: [[String: Any]] { object["elicitations"] as? [[String: Any]] ?? [] }
    }

    /// A tool call's result.
    struct CallResult {
        var object: [String: Any]
        var isError: Bool { object["isError"] as? Bool ?? false }
        var structured: [String: Any]? { object["structuredContent"] as? [String: Any] }
        var texts: [String] { ((object["content"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String } }
    }

    /// Starts `shortcuts mcp` from the client, lists its tools, makes calls, and reports.
    ///
    /// - Parameters:
    ///   - shortcuts: The binary and its home (a fresh one by default).
    ///   - arguments: Arguments after `mcp`.
    ///   - calls: Tool names and arguments, called in order.
    ///   - allow: `--allow` patterns.
    ///   - deny: `--deny` patterns.
    ///   - elicitation: Answers by field name; `nil` for a client without elicitation support.
    ///   - listTools: Whether to list the tools.
    /// - Returns: What the client saw.
    static func session(
        shortcuts: ShortcutsBinary? = nil, arguments: [String] = [], calls: [(String, [String: Any])], allow: [String] = [],
        deny: [String] = [], elicitation: [String: String]? = nil, listTools: Bool = false
    ) throws -> Report {
        let shortcuts = try shortcuts ?? ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "shortcuts-mcp-client")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        let plan: [String: Any] = [
            "command": shortcuts.executable.path,
            "args": ["mcp"] + arguments + allow.flatMap { ["--allow", $0] } + deny.flatMap { ["--deny", $0] },
            "cwd": folder.path, "env": environment, "seconds": 45, "listTools": listTools,
            "elicitation": elicitation.map { $0 as Any } ?? NSNull(),
            "calls": calls.map { ["tool": $0.0, "arguments": $0.1] }
        ]
        let planFile = folder.appendingPathComponent("plan.json")
        try JSONSerialization.data(withJSONObject: plan).write(to: planFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PackagePaths.file(PackagePaths.fixture("mcp/client.py")).path, planFile.path]
        let outputFile = folder.appendingPathComponent("stdout")
        let errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? error.close()
        }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The client stops itself after 45 seconds; this is the bound if it does not.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        let printed = (try? Data(contentsOf: outputFile)) ?? Data()
        let errors = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: printed) as? [String: Any] else {
            throw ClientFailure(description: "the MCP client exited with \(process.terminationStatus): \(errors)")
        }
        return Report(object: object)
    }

    struct ClientFailure: Error, CustomStringConvertible {
        var description: String
    }
}

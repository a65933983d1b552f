import Foundation
import ShortcutsSystemTestSupport
import Testing

/// Extensions' intents and entities used by `perform`, `run`, `list` and automations, with
/// real extension processes: Greeter (the Swift example, built by this package), Pantry (the
/// Python example) and a test extension that crashes, writes garbage, hangs and asks.
@Suite(.enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the extensions"), .timeLimit(.minutes(6)), .endToEnd)
struct ExtensionRunTests {
    static let pantry = ShortcutsBinary.packageRoot.appendingPathComponent("Examples/Pantry/pantry.py").path
    static let greeter = ShortcutsBinary.executable.deletingLastPathComponent().appendingPathComponent("greeter-example").path

    func expectNoLeftovers(_ shortcuts: ShortcutsBinary, _ sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // An extension ended at exit is reaped by init an instant later.
        let left = try await TestExtension.waitUntilNoneRuns(home: shortcuts.home)
        #expect(left.isEmpty, "processes left running: \(left)", sourceLocation: sourceLocation)
    }

    @Test
    func greeterIsUsedInAWorkflowBesideLibraryIntents() async throws {
        let shortcuts = try ShortcutsBinary()
        let added = try await shortcuts.run(["extensions", "add", Self.greeter])
        #expect(added.status == 0, "\(added.error)")
        let intents = try await shortcuts.run(["list", "intents"])
        #expect(intents.output.contains("Greeter.Greet"))
        #expect(intents.output.contains("Library.AddBook"))
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write(
            [
                "greet-author.yaml": """
                steps:
                  - id: book
                    perform: Library.AddBook
                    with: { title: Emma, authorName: Jane Austen }
                    openWhenRun: false
                  - id: hello
                    perform: Greeter.Greet
                    with: { name: "${book.author}", tone: formal }
                  - show: "${hello} (${upper(hello)})"
                output: ${hello}
                """
            ], in: folder)
        let validated = try await shortcuts.run(["validate", folder.appendingPathComponent("greet-author.yaml").path])
        #expect(validated.status == 0, "\(validated.output)\(validated.error)")
        let ran = try await shortcuts.run(["run", folder.appendingPathComponent("greet-author.yaml").path, "--json"])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\"Good day, Jane Austen.\"")
        #expect(ran.error.contains("Good day, Jane Austen. (GOOD DAY, JANE AUSTEN.)"))
        let performed = try await shortcuts.run(["perform", "Greeter.Greet", "name=Ada"])
        #expect(performed.output.contains("Hi Ada!"))
        try await expectNoLeftovers(shortcuts)
    }

    @Test func pantryFindIsPushedDownIntoItsPropertyQuery() async throws {
        let shortcuts = try ShortcutsBinary()
        let data = try TemporaryFolder.make()
        let trace = data.appendingPathComponent("requests.jsonl")
        let environment: [String: String?] = ["PANTRY_HOME": data.path, "PANTRY_TRACE": trace.path]
        #expect(try await shortcuts.run(["extensions", "add", Self.pantry]).status == 0)
        let intents = try await shortcuts.run(["list", "intents"], environment: environment)
        #expect(intents.output.contains("Pantry.AddItem"))
        for (name, quantity) in [("Rice", "2"), ("Flour", "5"), ("Lentils", "3"), ("Salt", "1")] {
            let added = try await shortcuts.run(
                ["perform", "Pantry.AddItem", "name=\(name)", "quantity=\(quantity)", "unit=pack"], environment: environment)
            #expect(added.status == 0, "\(added.error)")
            #expect(added.output.contains("Added \(quantity) \(name)."))
        }
        try? FileManager.default.removeItem(at: trace)
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write(
            [
                "stock.yaml": """
                steps:
                  - id: plenty
                    find: Pantry.PantryItem
                    where: { quantity: { greaterThan: 2 }, unit: { equalTo: pack } }
                    sortBy: [ { quantity: descending } ]
                    limit: 2
                  - show: "${plenty[0].name}: ${plenty[0].quantity}"
                output: ${plenty}
                """
            ], in: folder)
        let ran = try await shortcuts.run(["run", folder.appendingPathComponent("stock.yaml").path, "--json"], environment: environment)
        #expect(ran.status == 0, "\(ran.error)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(ran.output.utf8)) as? [[String: Any]])
        #expect(found.map { $0["title"] as? String } == ["Flour", "Lentils"])
        let requests = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let query = try #require(requests.first { $0["method"] as? String == "entities/query" }?["params"] as? [String: Any])
        let conditions = try #require(query["conditions"] as? [[String: Any]])
        #expect(Set(conditions.compactMap { $0["property"] as? String }) == ["quantity", "unit"])
        #expect(conditions.first { $0["property"] as? String == "quantity" }?["comparator"] as? String == "greaterThan")
        #expect(query["limit"] as? Int == 2)
        #expect((query["sort"] as? [[String: String]]) == [["property": "quantity", "order": "descending"]])
        try await expectNoLeftovers(shortcuts)
    }

    @Test func pantryAsksForAValueThroughTheEngine() async throws {
        let shortcuts = try ShortcutsBinary()
        let data = try TemporaryFolder.make()
        let environment: [String: String?] = ["PANTRY_HOME": data.path]
        #expect(try await shortcuts.run(["extensions", "add", Self.pantry]).status == 0)
        #expect(
            try await shortcuts.run(["perform", "Pantry.AddItem", "name=Rice", "quantity=2"], environment: environment).status == 0)
        let answered = try await shortcuts.run(["perform", "Pantry.Restock", "item=Rice", "--answer", "quantity=3"], environment: environment)
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.contains("Restocked Rice: 5 now."))
        let headless = try await shortcuts.run(["perform", "Pantry.Restock", "item=Rice", "--no-interaction"], environment: environment)
        #expect(headless.status == 1)
        #expect(headless.error.contains("How many Rice did you buy?"), "\(headless.error)")
        try await expectNoLeftovers(shortcuts)
    }

    @Test func aCrashMidPerformFailsTheStepAndTheNextRunWorks() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        try FileManager.default.removeItem(at: tester.deletingLastPathComponent().appendingPathComponent("pid"))
        let running = try shortcuts.start(["perform", "Tester.Slow", "text=30"])
        let pid = try #require(try await TestExtension.waitForPID(beside: tester, engine: running.pid), "the extension did not start")
        #expect(try await TestExtension.waitUntilPerforming("Slow", beside: tester))
        kill(pid, SIGKILL)
        let failed = try await running.finish()
        #expect(failed.status == 1)
        #expect(failed.error.contains("extension Tester exited with signal 9 while performing Slow"), "\(failed.error)")
        let next = try await shortcuts.run(["perform", "Tester.Echo", "text=again"])
        #expect(next.status == 0, "\(next.error)")
        #expect(next.output.contains("Echoed again"))
        try await expectNoLeftovers(shortcuts)
    }

    @Test func anExtensionsTracebackIsShownByPerformAndRun() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let performed = try await shortcuts.run(["perform", "Tester.Raise"])
        #expect(performed.status == 1)
        for expected in [
            "extension Tester exited with status 1 while performing Raise", "Traceback (most recent call last):", "RuntimeError: the shelf fell over"
        ] {
            #expect(performed.error.contains(expected), "\(performed.error)")
        }
        let folder = try TemporaryFolder.make(prefix: "raise")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TemporaryFolder.write(["raise.yaml": "steps:\n  - perform: Tester.Raise\n"], in: folder)
        let ran = try await shortcuts.run(["run", folder.appendingPathComponent("raise.yaml").path])
        #expect(ran.status == 1)
        #expect(ran.error.contains("RuntimeError: the shelf fell over"), "\(ran.error)")
        let runs = try await shortcuts.run(["runs", "list", "--json"])
        #expect(runs.output.contains("RuntimeError: the shelf fell over"), "the history keeps the traceback: \(runs.output)")
        try await expectNoLeftovers(shortcuts)
    }

    @Test func garbageIsAProtocolErrorNamingTheExtension() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let failed = try await shortcuts.run(["perform", "Tester.Garbage"])
        #expect(failed.status == 1)
        #expect(
            failed.error.contains("protocol error: extension Tester wrote a line that is not a JSON-RPC message: 'hello, this is not JSON'"),
            "\(failed.error)")
        try await expectNoLeftovers(shortcuts)
    }

    @Test func aHangIsEndedByTheAutomationsTimeout() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write(
            [
                "hang.yaml": """
                automation:
                  schedule: "@daily"
                  timeout: 1s
                steps:
                  - perform: Tester.Hang
                """
            ], in: folder)
        let started = ContinuousClock.now
        let ran = try await shortcuts.run(["automations", "run", "hang", "--workflows", folder.path])
        #expect(ran.status == 1)
        #expect(ran.output.contains("timed out after 1 s") || ran.error.contains("timed out after 1 s"), "\(ran.output)\(ran.error)")
        #expect(ContinuousClock.now - started < .seconds(20))
        try await expectNoLeftovers(shortcuts)
    }

    @Test func aHangIsEndedByTheStepsTimeoutAndTheNextStepRuns() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write(
            [
                "hang.yaml": """
                steps:
                  - id: stuck
                    perform: Tester.Hang
                    timeout: 500ms
                    continueOnError: true
                  - show: "went on: ${stuck.error.message}"
                """
            ], in: folder)
        let started = ContinuousClock.now
        let ran = try await shortcuts.run(["run", folder.appendingPathComponent("hang.yaml").path])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output.contains("went on: the step did not end within its timeout of 500 ms, so it was cancelled"), "\(ran.output)")
        #expect(ContinuousClock.now - started < .seconds(20))
        try await expectNoLeftovers(shortcuts)
    }

    @Test func questionsAreAnsweredOrQuotedWhenTheyCannotBeAsked() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let answered = try await shortcuts.run(["perform", "Tester.Ask", "--answer", "text=from the command line"])
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.contains("Got from the command line"))
        let headless = try await shortcuts.run(["perform", "Tester.Ask", "--no-interaction"])
        #expect(headless.status == 1)
        #expect(headless.error.contains("\"Which text?\""), "\(headless.error)")
        try await expectNoLeftovers(shortcuts)
    }

    @Test func aChangedProgramHasItsMetadataReadAgain() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        let script = try String(contentsOf: tester, encoding: .utf8)
        try ExecutableFile.write(
            script.replacingOccurrences(of: #"("Stray", "String")]]"#, with: #"("Stray", "String"), ("Wave", "String")]]"#), to: tester)
        let intents = try await shortcuts.run(["list", "intents"])
        #expect(intents.output.contains("Tester.Wave"), "\(intents.output)\(intents.error)")
        let after = try await shortcuts.run(["extensions", "list"])
        #expect(after.output.contains("Tester: 13 intents"))
        #expect(after.output.contains("program present and unchanged"))
        try await expectNoLeftovers(shortcuts)
    }

    @Test func aMissingExtensionIsAWarningNotAFailure() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        try FileManager.default.removeItem(at: tester)
        let listed = try await shortcuts.run(["list", "intents"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("Library.AddBook"))
        #expect(!listed.output.contains("Tester."))
        #expect(listed.error.contains("warning: extension Tester: its program \(tester.path) cannot be used: no such file"))
    }

    @Test(.timeLimit(.minutes(6))) func theDaemonRunsExtensionsAndStopsThemWhenIdle() async throws {
        let shortcuts = try ShortcutsBinary()
        let data = try TemporaryFolder.make()
        #expect(try await shortcuts.run(["extensions", "add", Self.pantry]).status == 0)
        let folder = try TemporaryFolder.make()
        try TemporaryFolder.write(
            [
                "beans.yaml": """
                automation:
                  schedule: "*/2 * * * * *"
                steps:
                  - perform: Pantry.AddItem
                    with: { name: Beans, quantity: 1 }
                """
            ], in: folder)
        let daemon = try shortcuts.start(
            ["daemon", "--workflows", folder.path, "--extension-idle-timeout", "500ms", "--log-level", "debug"],
            environment: ["PANTRY_HOME": data.path])
        // Until the extension has run, stopped when idle and started again.
        _ = try? await daemon.waitForOutput("two starts of Pantry and an idle stop") {
            $0.components(separatedBy: "Pantry: started (pid").count >= 3 && $0.contains("Pantry: idle for")
        }
        let stopped = try await daemon.stop()
        #expect(stopped.status == 0)
        let text = stopped.error
        #expect(text.contains("Added 1 Beans."), "\(text)")
        #expect(text.contains("Pantry: idle for 0.5 seconds, stopping"), "\(text)")
        #expect(text.components(separatedBy: "Pantry: started (pid").count >= 3, "the idle extension was not started again: \(text)")
        try await expectNoLeftovers(shortcuts)
    }
}

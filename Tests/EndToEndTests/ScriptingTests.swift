import Foundation
import Testing

/// `--json` everywhere, values nested as JSON, standard input and output for `run`.
@Suite(.endToEnd)
struct ScriptingTests {
    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func runReadsInputFromStandardInputAndWritesTheOutputToStandardOutput() async throws {
        let result = try await ShortcutsBinary().run(
            ["run", PackagePaths.fixture("echo-input.yaml"), "--input-path", "-", "--output-path", "-"],
            input: #"{"title": "Emma", "tags": ["classic", "novel"]}"#)
        #expect(result.status == 0, "\(result.error)")
        let output = try #require(try json(result.output) as? [String: Any])
        #expect(output["title"] as? String == "Emma")
        #expect(output["tags"] as? [String] == ["classic", "novel"])
        #expect(result.error == "Got Emma\n")
    }

    @Test func jsonAndOutputTypeJSONAreTheSame() async throws {
        let shortcuts = try ShortcutsBinary()
        let flag = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml", "--json"])
        let option = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml", "--output-type", "json"])
        #expect(flag.status == 0 && option.status == 0)
        #expect(flag.output == "\"done waiting\"\n")
        #expect(option.output == flag.output)
    }

    @Test func listParametersTakeTheNameRepeatedOrAJSONList() async throws {
        let shortcuts = try ShortcutsBinary()
        let repeated = try await shortcuts.run([
            "run", PackagePaths.fixture("echo-input.yaml"), "--input", "title=A",
            "--input", "tags=cat", "--input", "tags=home", "--json"
        ])
        #expect(try json(repeated.output) as? [String: Any] != nil)
        #expect((try json(repeated.output) as? [String: Any])?["tags"] as? [String] == ["cat", "home"])
        let list = try await shortcuts.run([
            "run", PackagePaths.fixture("echo-input.yaml"), "--input", "title=A",
            "--input", #"tags=["a","b"]"#, "--json"
        ])
        #expect((try json(list.output) as? [String: Any])?["tags"] as? [String] == ["a", "b"])
        let comma = try await shortcuts.run(["run", PackagePaths.fixture("echo-input.yaml"), "--input", "title=A", "--input", "tags=a,b", "--json"])
        #expect((try json(comma.output) as? [String: Any])?["tags"] as? [String] == ["a,b"])
        let photo = try await shortcuts.run(["perform", "Tags.AddPhoto", "name=Beach", "tags=Ocean", "tags=Sand", "--json"])
        #expect(photo.status == 0, "\(photo.error)")
        let found = try await shortcuts.run(["perform", "Tags.FindPhotos", "tag=sand"])
        #expect(found.output.contains("Beach"))
    }

    @Test func validateAndViewPrintJSON() async throws {
        let shortcuts = try ShortcutsBinary()
        let validated = try await shortcuts.run(["validate", "Workflows/add-and-open.yaml", PackagePaths.fixture("five-mistakes.yaml"), "--json"])
        #expect(validated.status == 1)
        let document = try #require(try json(validated.output) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["valid"] as? Bool } == [true, false])
        let diagnostics = try #require(files[1]["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 5)
        #expect(diagnostics[0]["line"] as? Int == 4 && diagnostics[0]["column"] as? Int == 14)
        #expect(diagnostics[0]["help"] as? String == "did you mean 'Library.AddBook'?")

        let intent = try #require(try json(try await shortcuts.run(["view", "Library.AddBook", "--json"]).output) as? [String: Any])
        #expect(intent["name"] as? String == "Library.AddBook")
        #expect((intent["parameters"] as? [[String: Any]])?.first?["name"] as? String == "title")

        let workflow = try #require(try json(try await shortcuts.run(["view", "Workflows/add-and-open.yaml", "--json"]).output) as? [String: Any])
        #expect(workflow["name"] as? String == "Add and open a book")
        let steps = try #require(workflow["steps"] as? [[String: Any]])
        #expect(
            steps.contains { $0["kind"] as? String == "find" && $0["target"] as? String == "Library.BookEntity" && $0["id"] as? String == "recent" })
        #expect((steps.first { $0["kind"] as? String == "repeat" }?["steps"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func listWorkflowsPrintsJSONWithTheAutomation() async throws {
        let result = try await ShortcutsBinary().run(["list", "workflows", "--json"])
        let workflows = try #require(try json(result.output) as? [[String: Any]])
        let reminder = try #require(workflows.first { $0["file"] as? String == "Workflows/morning-reminder.yaml" })
        #expect((reminder["automation"] as? [String: Any])?["schedule"] as? String == "0 8 * * MON-FRI")
        #expect(workflows.first { $0["file"] as? String == "Workflows/add-and-open.yaml" }?["automation"] is NSNull)
    }

    @Test func listingsOfAMissingOrEmptyFolderSaySo() async throws {
        let folder = try TemporaryFolder.make(prefix: "shortcuts-list")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shortcuts = try ShortcutsBinary()
        for arguments in [["list"] + ["workflows"], ["list", "automations"]] {
            let missing = try await shortcuts.run(arguments, in: folder)
            #expect(missing.status == 1)
            #expect(missing.error.hasPrefix("error: no folder ./Workflows in "))
            #expect(missing.error.contains("help: run shortcuts in the folder that holds Workflows/"))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Workflows"), withIntermediateDirectories: true)
        let empty = try await shortcuts.run(["list", "workflows"], in: folder)
        #expect(empty.status == 0)
        #expect(empty.output == "No workflows in ./Workflows.\n")
        #expect(try await shortcuts.run(["list", "workflows", "--json"], in: folder).output == "[\n\n]\n")
    }

    @Test func performCanLeaveTheOpenIntentAndPrintsNoBlankLine() async throws {
        let shortcuts = try ShortcutsBinary()
        let added = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma", "--no-open"])
        #expect(added.status == 0)
        #expect(added.output == "Added Emma to Library!\nEmma\n")
        #expect(try await shortcuts.run(["perform", "Library.CurrentScreen"]).output.hasPrefix("The Library shows") == true)
        #expect(!(try await shortcuts.run(["perform", "Library.CurrentScreen"]).output.contains("book: Emma")))
        let said = try await shortcuts.run(["say", "Open Want to Read in Library"])
        #expect(said.status == 0)
        #expect(!said.output.hasPrefix("\n") && !said.output.hasSuffix("\n\n"))
    }
}

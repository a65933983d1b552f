import Foundation
import ShortcutsSystemTestSupport
import Testing

/// Semantic search from the command line with the real all-MiniLM-L6-v2, installed with
/// `shortcuts models install --from` the folder `SHORTCUTS_TEST_MODEL_DIR` names; skipped without
/// it (failed when `SHORTCUTS_TESTS_REQUIRE_ALL=1`).
@Suite(.endToEnd)
struct SemanticSearchCommandTests {
    static let modelDirectory: URL? = {
        guard let path = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"], !path.isEmpty else { return nil }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let present = ["config.json", "tokenizer.json", "model.safetensors"].allSatisfy {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        return present ? folder : nil
    }()
    static var modelAvailable: Bool { modelDirectory != nil || SystemComponents.isRequired }

    /// Installs the model into the binary's `$SHORTCUTS_HOME` from the folder, as a user would.
    func installModel(_ shortcuts: ShortcutsBinary) async throws {
        let source = try #require(Self.modelDirectory, "SHORTCUTS_TEST_MODEL_DIR names no folder with all-MiniLM-L6-v2")
        let install = try await shortcuts.run(["models", "install", "--from", source.path])
        #expect(install.status == 0, "\(install.error)")
    }

    @Test func withoutAModelSemanticSearchCannotBeTurnedOnAndSearchMatchesWords() async throws {
        let shortcuts = try ShortcutsBinary()
        let on = try await shortcuts.run(["index", "semantic", "on", "journal"])
        #expect(on.status == 1)
        #expect(on.error.contains("error: no text-embedding model is installed"))
        #expect(on.error.contains("help: install a text-embedding model with `shortcuts models install`"))
        let search = try await shortcuts.run(["search", "river", "--index", "journal"], environment: [:])
        #expect(search.output.hasPrefix("1.  Morning run by the river"))
        #expect(search.error.isEmpty)
        let status = try await shortcuts.run(["index", "semantic", "status", "journal"], environment: [:])
        #expect(status.output == "journal: semantic search off\n")
        let missing = try await shortcuts.run(["index", "semantic", "on"], environment: [:])
        #expect(missing.status == 64)
        let notInstalled = try await shortcuts.run(["index", "semantic", "on", "journal", "--model", "multilingual-e5-small"])
        #expect(notInstalled.status == 1)
        #expect(notInstalled.error.contains("error: the model 'multilingual-e5-small' is not installed"))
        #expect(notInstalled.error.contains("help: install it with `shortcuts models install multilingual-e5-small`"))
        #expect(try await shortcuts.run(["index", "semantic", "status", "--model", "all-MiniLM-L6-v2"]).status == 64)
    }

    @Test(.enabled(if: modelAvailable, "needs all-MiniLM-L6-v2: set SHORTCUTS_TEST_MODEL_DIR to a folder with its files"))
    func journalEntriesAreFoundByMeaning() async throws {
        let shortcuts = try ShortcutsBinary()
        try await installModel(shortcuts)
        let model: [String: String?] = [:]
        let on = try await shortcuts.run(["index", "semantic", "on", "journal"], environment: model)
        #expect(on.status == 0, "\(on.error)")
        #expect(on.output.hasPrefix("Semantic search is on for journal: 7 items embedded with all-MiniLM-L6-v2@1110a243"))
        let byName = try await shortcuts.run(["index", "semantic", "on", "journal", "--model", "all-MiniLM-L6-v2"], environment: model)
        #expect(byName.output.hasPrefix("Semantic search is on for journal: 7 items embedded with all-MiniLM-L6-v2@1110a243"))
        let status = try await shortcuts.run(["index", "semantic", "status", "journal"], environment: model)
        #expect(status.output == "journal: semantic search on, 7 of 7 items embedded\n")

        let jogging = try await shortcuts.run(["search", "jogging", "--index", "journal", "--explain"], environment: model)
        #expect(jogging.output.hasPrefix("1.  Morning run by the river"), "\(jogging.output)")
        #expect(jogging.output.contains("(rrf 0.0164: words no match, meaning #1 cosine 0.3"))
        let kyoto = try await shortcuts.run(["search", "Kyoto", "--index", "journal"], environment: model)
        #expect(kyoto.output.hasPrefix("1.  嵐山の紅葉"), "\(kyoto.output)")
        let lexical = try await shortcuts.run(["search", "jogging", "--index", "journal", "--lexical"], environment: model)
        #expect(lexical.output == "No results.\n")
        let unrelated = try await shortcuts.run(["search", "quarterly tax invoice", "--index", "journal"], environment: model)
        #expect(unrelated.output.hasPrefix("No results."), "\(unrelated.output)")

        let json = try await shortcuts.run(["search", "windsurfing", "--index", "journal", "--json", "--explain"], environment: model)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let first = try #require((result["results"] as? [[String: Any]])?.first)
        #expect(first["title"] as? String == "Windsurfing in Carmel")
        let explanation = try #require(first["explanation"] as? [String: Any])
        #expect((explanation["semantic"] as? Double ?? 0) > 0.5)
        let fusion = try #require(explanation["fusion"] as? [String: Any])
        #expect(fusion["lexicalRank"] as? Int == 1)
        #expect(fusion["method"] as? String == "reciprocalRank")

        let intent = try await shortcuts.run(["perform", "Journal.SearchEntries", "query=jogging"], environment: model)
        #expect(intent.output.contains("Morning run by the river"), "\(intent.output)")

        let off = try await shortcuts.run(["index", "semantic", "off", "journal"], environment: model)
        #expect(off.status == 0)
        #expect(try await shortcuts.run(["search", "jogging", "--index", "journal"], environment: model).output == "No results.\n")

        // With semantic search on and the model removed, the index stays searchable by words, and says once why.
        #expect(try await shortcuts.run(["index", "semantic", "on", "journal"], environment: model).status == 0)
        #expect(try await shortcuts.run(["models", "remove", "all-MiniLM-L6-v2"]).status == 0)
        let noModel = try await shortcuts.run(["search", "river", "--index", "journal"])
        #expect(noModel.output.hasPrefix("1.  Morning run by the river"))
        #expect(noModel.error.components(separatedBy: "no text-embedding model is installed").count == 2, "\(noModel.error)")
        #expect(noModel.error.contains("install it with `shortcuts models install all-MiniLM-L6-v2`"), "\(noModel.error)")
    }

    @Test(.enabled(if: modelAvailable, "needs all-MiniLM-L6-v2: set SHORTCUTS_TEST_MODEL_DIR to a folder with its files"))
    func theSearchStepMatchesWordsOnlyWithSemanticFalse() async throws {
        let shortcuts = try ShortcutsBinary()
        try await installModel(shortcuts)
        let model: [String: String?] = [:]
        #expect(try await shortcuts.run(["index", "semantic", "on", "journal"], environment: model).status == 0)
        let workflow = try TemporaryFolder.make(prefix: "semantic-step").appendingPathComponent("find.yaml")
        try """
        name: Find runs
        steps:
          - id: meaning
            search: jogging
            index: journal
          - id: words
            search: jogging
            index: journal
            semantic: false
          - show: "${meaning.count} ${words.count} ${meaning[0].title}"
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let run = try await shortcuts.run(["run", workflow.path], environment: model)
        #expect(run.output.contains("1 0 Morning run by the river"), "\(run.output) \(run.error)")
    }
}

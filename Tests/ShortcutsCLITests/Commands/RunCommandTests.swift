import Foundation
import ShortcutsTestSupport
import Testing

/// `shortcuts run` and `search` in process: what they say to do when a run cannot start or a search finds nothing.
@Suite("run and search")
struct RunCommandTests {
    @Test("A required input that was not given, with no one to ask, says how to give it")
    func missingInputSaysHowToGiveIt() async throws {
        let shortcuts = try InProcessShortcuts()
        let folder = try TemporaryFolder.make(prefix: "run-command")
        try TemporaryFolder.write(["greet.yaml": "input:\n  title: { type: String }\nsteps:\n  - show: ${input.title}\n"], in: folder)
        let file = folder.appendingPathComponent("greet.yaml").path
        let missing = await shortcuts.run(["run", file, "--no-interaction"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("\(file):2:3: error: input 'title' needs an answer but cannot ask"), "\(missing.error)")
        #expect(missing.error.contains("help: give it with --input title=VALUE"), "\(missing.error)")
        let given = await shortcuts.run(["run", file, "--input", "title=Dune"])
        #expect(given.status == 0, "\(given.error)")
        #expect(given.output.contains("Dune"))
    }

    @Test("runs show without an id shows the newest run, and says how to record one when there is none")
    func runsShowWithoutAnIDShowsTheNewestRun() async throws {
        let shortcuts = try InProcessShortcuts()
        let none = await shortcuts.run(["runs", "show"])
        #expect(none.status == 1)
        #expect(none.error.contains("error: no runs yet"), "\(none.error)")
        #expect(none.error.contains("help: `shortcuts run WORKFLOW` runs one, and records it"), "\(none.error)")
        let folder = try TemporaryFolder.make(prefix: "runs-show-newest")
        try TemporaryFolder.write(
            ["first.yaml": "name: First\nsteps:\n  - show: one\n", "second.yaml": "name: Second\nsteps:\n  - show: two\n"], in: folder)
        for name in ["first", "second"] {
            let ran = await shortcuts.run(["run", folder.appendingPathComponent(name + ".yaml").path])
            #expect(ran.status == 0, "\(ran.error)")
        }
        let shown = await shortcuts.run(["runs", "show"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.hasPrefix("Run ") && shown.output.contains("Second ("), "\(shown.output)")
        #expect(!shown.output.contains("First ("), "\(shown.output)")
    }

    @Test("A typed search that finds nothing without a model says how to search by meaning")
    func searchWithoutAModelSaysHowToInstallOne() async throws {
        let shortcuts = try InProcessShortcuts()
        let found = await shortcuts.run(["search", "jogging"])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output == "No results.\n")
        #expect(
            found.error.contains(
                "note: words are matched as typed; to also find items by meaning, install a text-embedding model with `shortcuts models install`"),
            "\(found.error)")
        let lexical = await shortcuts.run(["search", "jogging", "--lexical"])
        #expect(lexical.error.isEmpty, "asked for words only: \(lexical.error)")
    }

    @Test("Two comparators of one property in a find's where: are both asked of the app's query, with the others")
    func twoComparatorsOfOneProperty() async throws {
        let shortcuts = try InProcessShortcuts()
        let folder = try TemporaryFolder.make(prefix: "find-two-comparators")
        try TemporaryFolder.write(
            [
                "backup-1.tar.gz": "", "backup-2.zip": "", "notes-3.tar.gz": "",
                "find.yaml": """
                steps:
                  - id: found
                    find: Files.FileEntity
                    where:
                      folder: { equalTo: "\(folder.path)" }
                      name: { hasPrefix: backup-, hasSuffix: .tar.gz }
                output: ${found[0].name} of ${found.count}
                """
            ], in: folder)
        let found = await shortcuts.run(["run", folder.appendingPathComponent("find.yaml").path])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output == "backup-1.tar.gz of 1\n")
    }
}

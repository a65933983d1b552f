import Foundation
import Testing

/// Every I/O failure names the path, the reason in words and a hint; no NSError reaches a user.
@Suite(.endToEnd)
struct ErrorReportTests {
    @Test func aHomeThatIsAFileIsNamed() async throws {
        let file = TemporaryFolder.unusedPath(prefix: "shortcuts-home-file")
        try "not a folder".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let shortcuts = try ShortcutsBinary()
        for arguments in [["perform", "Library.AddBook", "title=Emma"], ["run", "Workflows/wait-and-stop.yaml"]] {
            let result = try await shortcuts.run(arguments, environment: ["SHORTCUTS_HOME": file.path])
            #expect(result.status == 1)
            #expect(result.error.contains("cannot use the data folder \(file.path): it is a file, not a folder"), "\(result.error)")
            #expect(result.error.contains("help: set SHORTCUTS_HOME to a folder"))
            #expect(!result.error.contains("NSCocoaErrorDomain") && !result.error.contains("SQLite error"))
        }
    }

    @Test(arguments: [
        (
            ["run", "Workflows"],
            "error: cannot read the workflow Workflows: it is a folder, not a workflow file\nhelp: give a .yaml file, such as Workflows/add-and-open.yaml\n"
        ),
        (
            ["validate", "Workflows"],
            "error: cannot read the workflow Workflows: it is a folder, not a file\nhelp: give the path of a .yaml workflow file\n"
        ),
        (
            ["run", "Workflows/wait-and-stop.yaml", "--input-path", "no-such.json"],
            "error: cannot read --input-path no-such.json: no such file\nhelp: give a file holding a JSON object such as {\"title\": \"Emma\"}, or - to read it from standard input\n"
        ),
        (
            ["run", "Workflows/wait-and-stop.yaml", "--input-path", "Workflows"],
            "error: cannot read --input-path Workflows: it is a folder, not a file\nhelp: give a file holding a JSON object such as {\"title\": \"Emma\"}, or - to read it from standard input\n"
        ),
        (
            ["run", "Workflows/wait-and-stop.yaml", "--output-path", "no-such-folder/out.json"],
            "error: cannot write --output-path no-such-folder/out.json: its folder no-such-folder does not exist\nhelp: give a file in a folder you can write, or - for standard output\n"
        ),
        (
            ["run", "Workflows/wait-and-stop.yaml", "--output-path", "Workflows"],
            "error: cannot write --output-path Workflows: it is a folder, not a file\nhelp: give a file in a folder you can write, or - for standard output\n"
        )
    ])
    func aBadPathIsNamedWithTheReasonAndAHint(arguments: [String], expected: String) async throws {
        let result = try await ShortcutsBinary().run(arguments)
        #expect(result.status == 1)
        #expect(result.error == expected)
    }

    @Test func badInputJSONIsNamed() async throws {
        let result = try await ShortcutsBinary().run(["run", "Workflows/wait-and-stop.yaml", "--input-path", "-"], input: "[1, 2]")
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: --input-path standard input holds JSON of another kind"))
    }

    @Test func anUnreadableWorkflowIsNamed() async throws {
        guard getuid() != 0 else { return }  // root reads every file
        let folder = try TemporaryFolder.make(prefix: "shortcuts-unreadable")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("secret.yaml")
        try "steps: []\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        let result = try await ShortcutsBinary().run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: cannot read the workflow \(file.path): permission denied"))
    }

    @Test func hintsUseTheToolsOwnWording() async throws {
        let shortcuts = try ShortcutsBinary()
        let validated = try await shortcuts.run(["validate", "--no-interaction", "Workflows/shelf-menu.yaml"])
        #expect(validated.status == 1)
        #expect(validated.error.hasSuffix("help: answer it in advance with --answer next=OPTION\n"))
        let unknown = try await shortcuts.run(["validate", PackagePaths.fixture("five-mistakes.yaml")])
        #expect(unknown.error.contains("help: did you mean 'Library.AddBook'?"))
        let confirmation = try await shortcuts.run(["perform", "Library.AddBook", "title=crawdads", "--no-interaction"])
        #expect(confirmation.error.contains("help: pass --yes, or --answer title=yes"))
    }

    @Test func aDatabaseThatCannotBeOpenedIsNamedWithoutSQLiteCodes() async throws {
        let shortcuts = try ShortcutsBinary()
        try FileManager.default.createDirectory(at: shortcuts.home.appendingPathComponent("runs.sqlite"), withIntermediateDirectories: true)
        try "not a database".write(to: shortcuts.home.appendingPathComponent("library.sqlite"), atomically: true, encoding: .utf8)
        let run = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("error: cannot open the run history: \(shortcuts.home.path)/runs.sqlite: a folder has the file's name"))
        let perform = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        #expect(perform.status == 1)
        #expect(perform.error.hasPrefix("error: \(shortcuts.home.path)/library.sqlite: the file is not a SQLite database"))
        #expect(perform.error.contains("help: move \(shortcuts.home.path)/library.sqlite away; a new one is created on next use"))
        for error in [run.error, perform.error] {
            #expect(!error.contains("SQLite error") && !error.contains("SELECT"))
        }
    }
}

extension ErrorReportTests {
    @Test("Commands throw; one function prints the error and gives the exit status, with the same words and codes as before")
    func oneFunctionPrintsAndExits() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(["runs", "show", "zzzz"])
        #expect(run.status == 1)
        #expect(run.error == "error: no run 'zzzz'\nhelp: `shortcuts runs list` lists recent runs\n")
        let file = PackagePaths.fixture("needs-answer.yaml")
        let notFolder = try await shortcuts.run(["automations", "list", "--workflows", file])
        #expect(notFolder.status == 1)
        #expect(notFolder.error == "error: '\(file)' is a file, not a folder\nhelp: give the folder of workflow files with --workflows DIR\n")
        let cron = try await shortcuts.run(["cron", "next", "0 25 * * *"])
        #expect(cron.status == 1)
        #expect(cron.error.hasPrefix("error: "))
        #expect(cron.error.contains("\n  0 25 * * *\n    ^~\n"), "\(cron.error)")

        // The source holds no other way out: errors are printed by one function, which returns
        // the status, and `exit(` appears only at the end of `main`.
        let sources = PackagePaths.root.appendingPathComponent("Sources/ShortcutsCLI")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 10)
        var exits: [String] = []
        for url in files {
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            where line.contains("exit(") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                exits.append(url.lastPathComponent + ": " + line.trimmingCharacters(in: .whitespaces))
            }
        }
        #expect(exits == ["ShortcutsTool.swift: exit(await execute(arguments, installingServersBesides: apps + extensions))"], "\(exits)")
    }
}

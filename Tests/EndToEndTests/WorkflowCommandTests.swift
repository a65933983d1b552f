import Foundation
import ShortcutsSystemTestSupport
import Testing

/// Every workflow in Workflows/ runs, headless, with the answers it needs, and its output is checked.
///
/// The workflows that read the web, files or folders run against local resources: a local HTTP
/// server and a temporary folder, passed as inputs. In arguments, output and shown lines,
/// `{folder}` stands for that folder, `{server}` for the server's address and `{today}` for
/// today's date.
@Suite(.endToEnd)
struct WorkflowsFolderTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var arguments: [String] = []
        var output: String
        var shown: [String] = []
        /// Makes what the workflow works on, in the temporary folder.
        var prepare: @Sendable (URL) throws -> Void = { _ in }
        var description: String { file }
    }

    /// What the workflows that need local resources are given.
    struct Setting {
        let folder: URL
        let server: LocalHTTPServer

        init() throws {
            folder = try TemporaryFolder.make(prefix: "shortcuts-workflows")
            server = try LocalHTTPServer(routes: [
                "/releases.json": { _ in
                    .json(
                        #"[{"name": "Swift 6.2.1", "html_url": "https://example.org/6.2.1"}, {"name": "Swift 6.2", "html_url": "https://example.org/6.2"}]"#
                    )
                }
            ])
        }

        func filled(_ text: String) -> String {
            // Today as the workflows write it: in the machine's time zone, not UTC.
            let today = Date().formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
            return text.replacingOccurrences(of: "{folder}", with: folder.path)
                .replacingOccurrences(of: "{server}", with: server.url("").absoluteString.trimmingCharacters(in: ["/"]))
                .replacingOccurrences(of: "{today}", with: today)
        }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static let expectations: [Expectation] = [
        Expectation(
            file: "add-and-open.yaml", output: "Where the Crawdads Sing, Secrets of the Savanna, The Eye of the Elephant",
            shown: [
                "Added Where the Crawdads Sing by Delia Owens (2018-08-14)", "1 of them before 2000: The Eye of the Elephant",
                "Opened Where the Crawdads Sing.", "Opened The Eye of the Elephant."
            ]),
        Expectation(file: "shelf-menu.yaml", arguments: ["--answer", "next=Open what I want to read"], output: "shelf: wantToRead"),
        Expectation(
            file: "reading-list.yaml",
            output: "1. Emma (Jane Austen), 2. Persuasion (Jane Austen), 3. Murder on the Orient Express (Agatha Christie)",
            shown: ["Reading list:", "  1. Emma (Jane Austen)"]),
        Expectation(file: "finish-book.yaml", output: "Read", shown: ["Emma is now on the Read shelf, read 2026-01-15"]),
        Expectation(
            file: "buy-copies.yaml", arguments: ["--yes", "--input", "copies=3"], output: "3 × Beloved",
            shown: ["Thank you for your order!", "Ordered 3 × Beloved"]),
        Expectation(
            file: "nested-run.yaml", output: "3",
            shown: ["The nested workflow found 3 books; the newest is Where the Crawdads Sing."]),
        Expectation(file: "wait-and-stop.yaml", output: "done waiting"),
        Expectation(file: "library-tour.yaml", output: "shelf: currentlyReading", shown: ["The library is empty."]),
        Expectation(
            file: "search-books.yaml", output: "Secrets of the Savanna",
            shown: [
                "1 found for 'savanna owens'; best: Secrets of the Savanna by Delia Owens",
                "Opened Secrets of the Savanna.", "The index holds 3 books."
            ]),
        Expectation(file: "morning-reminder.yaml", output: "0", shown: ["Nothing on the Want to Read shelf."]),
        Expectation(
            file: "morning-digest.yaml", arguments: ["--input", "url={server}/releases.json", "--input", "folder={folder}/Digests"],
            output: "{folder}/Digests/digest-{today}.md",
            shown: [
                "Notification (no desktop: DBUS_SESSION_BUS_ADDRESS is not set (no desktop session)): Morning digest — Releases listed: 2, in digest-{today}.md"
            ]),
        Expectation(
            file: "nightly-backup.yaml", arguments: ["--input", "source={folder}/Documents", "--input", "backups={folder}/Backups"],
            output: "1", shown: ["Backed up to backup-{today}"],
            prepare: { folder in
                try TemporaryFolder.write(["Documents/notes.txt": "notes", "Backups/backup-2026-01-01-020000/notes.txt": "old"], in: folder)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: -10 * 86_400)],
                    ofItemAtPath: folder.appendingPathComponent("Backups/backup-2026-01-01-020000").path)
            }),
        Expectation(
            file: "disk-alert.yaml", arguments: ["--input", "threshold=101"], output: "{usedPercent}",
            shown: ["{usedPercent}% used, below 101%."]),
        Expectation(
            file: "tidy-downloads.yaml", arguments: ["--input", "folder={folder}/Downloads"], output: "3",
            shown: ["Tidied 3 files in {folder}/Downloads."],
            prepare: { folder in
                try TemporaryFolder.write(["Downloads/cat.jpg": "jpeg", "Downloads/paper.pdf": "pdf", "Downloads/old.zip": "zip"], in: folder)
            }),
        Expectation(
            file: "books-to-csv.yaml", arguments: ["--input", "path={folder}/books.csv"], output: "3",
            shown: ["Wrote 3 books to books.csv."]),
        Expectation(
            file: "health-check.yaml", arguments: ["--input", "check=test -e {folder}/ready || { touch {folder}/ready; false; }"],
            output: "up", shown: ["Up on try 2."]),
        Expectation(
            file: "retry-until-answer.yaml",
            arguments: [
                "--input", "check=test -e {folder}/second || { test -e {folder}/first && touch {folder}/second || touch {folder}/first; false; }"
            ],
            output: "3", shown: ["The service answered on try 3."]),
        // The pick is random: the output says it is one of the books found.
        Expectation(file: "random-book.yaml", output: "1 of 3 books", shown: ["Tonight: "]),
        Expectation(file: "top-authors.yaml", output: "Jane Austen (3), Toni Morrison (2)", shown: ["Top author: Jane Austen"]),
        Expectation(
            file: "books-per-year.yaml", arguments: ["--input", "path={folder}/per-year.csv"], output: "4",
            shown: ["Wrote 4 years to per-year.csv."]),
        // The triggered ones, given by hand the inputs their webhook or file would give.
        Expectation(
            file: "add-book-hook.yaml", arguments: ["--input", "title=Persuasion"], output: "Persuasion",
            shown: ["Added Persuasion to Library!"]),
        Expectation(
            file: "books-from-inbox.yaml", arguments: ["--input", "file={folder}/Inbox/list.txt"], output: "2",
            shown: ["Added Emma to Library!", "Added Beloved to Library!", "Added 2 books from {folder}/Inbox/list.txt."],
            prepare: { folder in try TemporaryFolder.write(["Inbox/list.txt": "Emma\n\nBeloved\n"], in: folder) })
    ]

    @Test func everyWorkflowHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ShortcutsBinary.packageRoot.appendingPathComponent("Workflows").path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == Self.expectations.map(\.file).sorted())
    }

    @Test(arguments: expectations)
    func workflowRunsAndProducesItsOutput(_ expectation: Expectation) async throws {
        let shortcuts = try ShortcutsBinary()
        let setting = try Setting()
        defer { setting.stop() }
        try expectation.prepare(setting.folder)
        let validated = try await shortcuts.run(["validate", "Workflows/" + expectation.file])
        #expect(validated.status == 0, "\(validated.error)")
        let result = try await shortcuts.run(
            ["run", "Workflows/" + expectation.file, "--no-interaction"] + expectation.arguments.map(setting.filled),
            environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The disk's use is whatever it is: the workflow's output stands for it in the lines.
        let output = lines.dropLast().last ?? ""
        let expected = setting.filled(expectation.output).replacingOccurrences(of: "{usedPercent}", with: output)
        #expect(output == expected)
        for shown in expectation.shown.map({ setting.filled($0).replacingOccurrences(of: "{usedPercent}", with: output) }) {
            #expect(lines.contains { $0.hasPrefix(shown) }, "missing shown line: \(shown)")
        }
    }
}

@Suite(.endToEnd)
struct WorkflowCommandTests {
    @Test func theDesignExampleReturnsTheNewestBooksAsJSON() async throws {
        let result = try await ShortcutsBinary().run(["run", "Workflows/add-and-open.yaml", "--output-type", "json", "--no-interaction"])
        #expect(result.status == 0)
        let books = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(books.map { $0["title"] as? String } == ["Where the Crawdads Sing", "Secrets of the Savanna", "The Eye of the Elephant"])
        #expect(books.allSatisfy { ($0["properties"] as? [String: Any])?["author"] as? String == "Delia Owens" })
        #expect(result.error.contains("Opened The Eye of the Elephant."))
    }

    @Test func fiveMistakesGiveFiveLocatedErrors() async throws {
        let result = try await ShortcutsBinary().run(["validate", "Tests/EndToEndTests/Fixtures/five-mistakes.yaml"])
        #expect(result.status == 1)
        let headlines = result.error.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            headlines
                == [
                    "Tests/EndToEndTests/Fixtures/five-mistakes.yaml:4:14: error: unknown intent 'Library.AddBok'",
                    "Tests/EndToEndTests/Fixtures/five-mistakes.yaml:7:22: error: 'bok' is not defined here",
                    "Tests/EndToEndTests/Fixtures/five-mistakes.yaml:7:36: error: parameter 'count' needs Int: cannot use String 'many' as Int (write a whole number such as 3)",
                    "Tests/EndToEndTests/Fixtures/five-mistakes.yaml:10:7: error: BookEntity has no property 'auther'",
                    "Tests/EndToEndTests/Fixtures/five-mistakes.yaml:11:17: error: BookEntity cannot be sorted by 'shelf'"
                ].map { Substring($0) })
        #expect(result.error.contains("help: did you mean 'Library.AddBook'?"))
        #expect(result.error.contains("help: did you mean 'book'?"))
        #expect(result.error.contains("help: did you mean 'author'?"))
        #expect(result.error.contains("    4 |     perform: Library.AddBok\n      |              ^~~~~~~~~~~~~~"))
    }

    @Test func aHeadlessRunFailsWithTheQuestionAndSucceedsWithTheAnswer() async throws {
        let shortcuts = try ShortcutsBinary()
        let headless = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/needs-answer.yaml", "--no-interaction"])
        #expect(headless.status == 1)
        #expect(headless.error.contains("needs-answer.yaml:3:14: error: Library.AddBook needs an answer but cannot ask: \"Who wrote the book?\""))
        #expect(headless.error.contains("help: pass --answer authorName=VALUE"))
        let answered = try await shortcuts.run([
            "run", "Tests/EndToEndTests/Fixtures/needs-answer.yaml", "--no-interaction", "--answer", "authorName=Asimov"
        ])
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.hasSuffix("\nIsaac Asimov\n"))
    }

    @Test func aPropertyQueryOnAnEmptyLibraryValidatesAndReturnsNothing() async throws {
        let shortcuts = try ShortcutsBinary()
        #expect(try await shortcuts.run(["validate", "Tests/EndToEndTests/Fixtures/empty-find.yaml"]).status == 0)
        let result = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/empty-find.yaml", "--output-type", "json"])
        #expect(result.status == 0)
        #expect(result.output == "[\n\n]\n")
    }

    @Test func workflowsAreListedViewedAndFoundByName() async throws {
        let shortcuts = try ShortcutsBinary()
        let list = try await shortcuts.run(["list", "workflows"])
        #expect(list.output.contains("Workflows/add-and-open.yaml"))
        #expect(list.output.contains("Add and open a book"))
        let view = try await shortcuts.run(["view", "Workflows/add-and-open.yaml"])
        #expect(view.output.contains("  title: String"))
        #expect(view.output.contains("find Library.BookEntity  → recent"))
        let byName = try await shortcuts.run(["run", "Wait, then stop early"])
        #expect(byName.output == "done waiting\n")
    }

    @Test func theSchemaNamesTheInstalledIntentsAndTheirParameters() async throws {
        let result = try await ShortcutsBinary().run(["schema"])
        #expect(result.status == 0)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let perform = try #require(definitions["performStep"] as? [String: Any])
        let names = ((perform["properties"] as? [String: Any])?["perform"] as? [String: Any])?["enum"] as? [String]
        #expect(names?.contains("Library.AddBook") == true)
        #expect(result.output.contains("\"authorName\""))
    }
}

@Suite(.endToEnd)
struct RunHistoryCommandTests {
    @Test func runsAreRecordedWithTheirStepsAndFailures() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["run", "Workflows/library-tour.yaml"])
        _ = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/needs-answer.yaml", "--no-interaction"])
        let list = try await shortcuts.run(["runs", "list"])
        let rows = list.output.split(separator: "\n").dropFirst().map { $0 }
        #expect(rows.count == 2)
        #expect(rows[0].contains("failed") && rows[0].hasSuffix("Needs an answer"))
        #expect(rows[1].contains("succeeded") && rows[1].hasSuffix("Library tour"))

        let tour = try await shortcuts.run(["runs", "show", String(rows[1].prefix(8))])
        #expect(tour.output.contains("output: \"shelf: currentlyReading\""))
        #expect(tour.output.contains("✔ Workflows/library-tour.yaml:8:5 perform → screen"))
        #expect(tour.output.contains("in: { \"conditions\" : [ \"title hasPrefix the\", \"author contains owens\" ] }"))

        let failed = try await shortcuts.run(["runs", "show", String(rows[0].prefix(8)), "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(failed.output.utf8)) as? [String: Any])
        let run = try #require(document["run"] as? [String: Any])
        #expect(run["status"] as? String == "failed")
        #expect((run["error"] as? String)?.contains("Who wrote the book?") == true)
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.first?["line"] as? Int == 3)
        #expect((steps.first?["error"] as? String)?.contains("cannot ask") == true)

        let missing = try await shortcuts.run(["runs", "show", "zzzz"])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: no run 'zzzz'"))
    }
}

@Suite(.endToEnd)
struct CancellationTests {
    @Test func interruptingARunStopsItAndRecordsItAsCancelled() async throws {
        let shortcuts = try ShortcutsBinary()
        let process = Process()
        process.executableURL = ShortcutsBinary.executable
        process.arguments = ["run", "Tests/EndToEndTests/Fixtures/long-wait.yaml"]
        process.currentDirectoryURL = ShortcutsBinary.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // Wait until the run has shown its first line, then interrupt it as Ctrl-C would.
        let handle = output.fileHandleForReading
        var seen = ""
        while !seen.contains("waiting\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        let started = Date()
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(started) < 10)
        let list = try await shortcuts.run(["runs", "list"])
        #expect(list.output.contains("cancelled"))
        let shown = try await shortcuts.run(["runs", "show", String(list.output.split(separator: "\n")[1].prefix(8))])
        #expect(shown.output.contains("✔ Tests/EndToEndTests/Fixtures/long-wait.yaml:3:5 show"))
        #expect(shown.output.contains("error: the run was cancelled"))
        #expect(!shown.output.contains("never shown"))
    }
}

import Foundation
import Testing

/// `shortcuts search` and `shortcuts index`, each command a new process on the same home.
@Suite(.endToEnd)
struct SearchCommandTests {
    /// The value of a `  name:  value` line of `index status`.
    func field(_ name: String, in status: String) -> String? {
        status.split(separator: "\n").first { $0.hasPrefix("  \(name):") }
            .map { $0.dropFirst(name.count + 3).trimmingCharacters(in: .whitespaces) }
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aBookAddedOrDeletedInOneProcessIsFoundOrNotInTheNext() async throws {
        let shortcuts = try ShortcutsBinary()
        #expect(try await shortcuts.run(["perform", "Library.AddBook", "title=Where the Crawdads Sing"]).status == 0)
        #expect(try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"]).status == 0)

        let found = try await shortcuts.run(["search", "crawdads", "--index", "library"])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output.hasPrefix("1.  Where the Crawdads Sing  Delia Owens  library · Library.BookEntity"))

        let result = try json(try await shortcuts.run(["search", "emma", "--json"]).output)
        let hits = try #require(result["results"] as? [[String: Any]])
        #expect(hits.count == 1)
        #expect(hits.first?["entityType"] as? String == "Library.BookEntity")
        #expect((hits.first?["entity"] as? [String: Any])?["title"] as? String == "Emma")
        #expect(hits.first?["index"] as? String == "library")

        #expect(try await shortcuts.run(["perform", "Library.DeleteBook", "book=Emma", "--yes"]).status == 0)
        #expect(try await shortcuts.run(["search", "emma", "--index", "library"]).output == "No results.\n")

        let intent = try await shortcuts.run(["perform", "Library.SearchBooks", "query=owens"])
        #expect(intent.output == "Books matching owens: 1.\nWhere the Crawdads Sing\n")
    }

    @Test func queryStringsFiltersExplanationsAndSuggestions() async throws {
        let shortcuts = try ShortcutsBinary()
        for title in ["Emma", "Persuasion", "Where the Crawdads Sing"] {
            _ = try await shortcuts.run(["perform", "Library.AddBook", "title=\(title)", "--answer", "authorName=Jane Austen"])
        }
        let exact = try await shortcuts.run(["search", #"title == "emma"cd"#, "--query-string", "--index", "library"])
        #expect(exact.output.hasPrefix("1.  Emma  Jane Austen  library · Library.BookEntity"))
        let filtered = try await shortcuts.run(["search", "", "--index", "library", "--filter", #"author == "jane*"cd"#, "--json"])
        let titles = try #require(try json(filtered.output)["results"] as? [[String: Any]]).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["Emma", "Persuasion"])

        let explained = try await shortcuts.run(["search", "austen", "--index", "library", "--explain"])
        #expect(explained.output.contains("score 0.500 = 0.5×relevance 1.000"))
        let suggested = try await shortcuts.run(["search", "persu", "--index", "library", "--limit", "0"])
        #expect(suggested.output.contains("Did you mean: persuasion?"))
    }

    @Test func mistakesPointAtTheirColumn() async throws {
        let shortcuts = try ShortcutsBinary()
        let query = try await shortcuts.run(["search", #"title == "emma"#, "--query-string"])
        #expect(query.status == 1)
        #expect(query.error.hasPrefix("error: invalid query at column 10: "))
        #expect(query.error.contains("\n  title == \"emma\n           ^\n"))
        let filter = try await shortcuts.run(["search", "emma", "--filter", "title =="])
        #expect(filter.status == 1)
        #expect(filter.error.contains("error: invalid --filter query at column 9"))
        #expect(filter.error.contains("\n  title ==\n          ^\n"))
        let index = try await shortcuts.run(["search", "emma", "--index", "librar"])
        #expect(index.status == 1)
        #expect(
            index.error == """
                error: no search index named 'librar'
                  shortcuts search emma --index librar
                                                ^~~~~~
                help: did you mean 'library'?

                """)
        #expect(try await shortcuts.run(["search", "emma", "--limit=-1"]).status == 64)
        #expect(try await shortcuts.run(["index", "delete"]).status == 64)
        #expect(try await shortcuts.run(["index", "rebuild", "tag"]).status == 1)
    }

    @Test func deletingTheLibraryIndexLeavesTheBooksAndRebuildingRestoresIt() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        #expect(try await shortcuts.run(["search", "emma"]).output.contains("Emma"))

        let deleted = try await shortcuts.run(["index", "delete", "library"])
        #expect(deleted.status == 0)
        #expect(deleted.output.hasPrefix("Deleted the index library (1 item); the data of the Library app is untouched."))
        #expect(try await shortcuts.run(["search", "emma", "--index", "library"]).output == "No results.\n")
        // A book added while indexing is off is not indexed either.
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Persuasion"])
        #expect(try await shortcuts.run(["search", "persuasion", "--index", "library"]).output == "No results.\n")
        // The books are still there.
        #expect(try await shortcuts.run(["perform", "Library.OpenBook", "book=Emma"]).output.hasPrefix("Opened Emma."))
        let status = try await shortcuts.run(["index", "status", "library"]).output
        #expect(field("indexing", in: status) == "off (deleted; `shortcuts index rebuild library` restores it)")
        #expect(field("items", in: status) == "0")

        let reindex = try await shortcuts.run(["index", "reindex", "library"])
        #expect(reindex.status == 1)
        #expect(reindex.error.hasPrefix("error: indexing of library is off\n"))

        let rebuilt = try await shortcuts.run(["index", "rebuild", "library"])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.output.hasPrefix("Rebuilt library: 2 items in "))
        #expect(rebuilt.error.isEmpty, "no progress bar without a terminal")
        #expect(try await shortcuts.run(["search", "persuasion"]).output.contains("Persuasion"))
    }

    @Test func theTagsFlowOfTheTalk() async throws {
        let shortcuts = try ShortcutsBinary()
        #expect(try await shortcuts.run(["perform", "Tags.AddPhoto", "name=Arch at sunset", "tags=Natural Bridges State Park"]).status == 0)
        #expect(try await shortcuts.run(["perform", "Tags.AddPhoto", "name=Beach", "tags=Ocean"]).status == 0)
        let query = [#"keywords == "natural*"cwdt"#, "--query-string", "--index", "tags"]

        let found = try await shortcuts.run(["search"] + query)
        #expect(found.output == "1.  Arch at sunset  Natural Bridges State Park  tags · Tags.PhotoEntity\n")
        #expect(try await shortcuts.run(["perform", "Tags.FindPhotos", "tag=natural"]).output == "Photos tagged natural: 1.\nArch at sunset\n")

        #expect(try await shortcuts.run(["index", "delete", "tags"]).status == 0)
        #expect(try await shortcuts.run(["search"] + query).output == "No results.\n")
        #expect(try await shortcuts.run(["perform", "Tags.FindPhotos"]).output == "All photos: 2.\nArch at sunset, Beach\n")

        #expect(try await shortcuts.run(["index", "rebuild", "tags"]).status == 0)
        #expect(try await shortcuts.run(["search"] + query).output == found.output)
    }

    @Test func theJournalRanksAndSuggests() async throws {
        let shortcuts = try ShortcutsBinary()
        let search = try await shortcuts.run(["perform", "Journal.SearchEntries", "query=windsurfing carmel"])
        #expect(search.output.hasPrefix("Top hits: Windsurfing in Carmel\n"))
        let suggestions = try await shortcuts.run(["perform", "Journal.SuggestSearches", "text=windsurf"])
        #expect(suggestions.output.hasPrefix("windsurfing"))
        let japanese = try await shortcuts.run(["search", "紅葉", "--index", "journal"])
        #expect(japanese.output.hasPrefix("1.  嵐山の紅葉"))

        let status = try await shortcuts.run(["index", "status", "journal"]).output
        #expect(field("client state", in: status) == "revision 7")
        #expect(field("history token", in: status) == "(none)")
        #expect(status.contains("    EntryEntity  7"))
    }

    @Test func statusListsEveryIndexAndReindexPutsItemsBack() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        _ = try await shortcuts.run(["search", "emma"])
        let listed = try await shortcuts.run(["index", "status", "--json"])
        let statuses = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.output.utf8))
                as? [[String: Any]])
        #expect(statuses.map { $0["name"] as? String } == ["journal", "library", "tags"])
        let library = try #require(statuses.first { $0["name"] as? String == "library" })
        #expect(library["itemCountsByDomain"] as? [String: Int] == ["BookEntity": 1])
        #expect(library["historyToken"] is Int)
        #expect(library["vocabularySize"] as? Int ?? 0 > 0)

        let found = try await shortcuts.run(["search", "emma", "--json"])
        let hit = try #require((try json(found.output)["results"] as? [[String: Any]])?.first)
        let identifier = try #require(hit["identifier"] as? String)
        let reindexed = try await shortcuts.run(["index", "reindex", "library", identifier])
        #expect(reindexed.output == "Reindexed 1 item of library: \(identifier)\n")
        #expect(try await shortcuts.run(["index", "reindex", "library"]).output == "Reindexed library: 1 item\n")
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/script"), "needs script(1) for a terminal"))
    func rebuildDrawsAProgressBarOnATerminal() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        terminal.arguments = ["-qec", "'\(ShortcutsBinary.executable.path)' index rebuild library", "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        terminal.environment = environment
        let output = Pipe()
        terminal.standardOutput = output
        terminal.standardInput = FileHandle.nullDevice
        try terminal.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        terminal.waitUntilExit()
        #expect(terminal.terminationStatus == 0)
        #expect(text.contains("\rRebuilding library [------------------------------] 0/1"))
        #expect(text.contains("\rRebuilding library [##############################] 1/1"))
        #expect(text.contains("Rebuilt library: 1 item in "))
    }

    @Test func queriesAtAndBeyondTheLimitsGiveLocatedErrorsNotCrashes() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        for (query, column) in [
            ("$time.today(9223372036854775807)", 13), ("lastUsedDate > $time.this_year(1e19)", 32),
            ("lastUsedDate < $time.yesterday(-9223372036854775808)", 32)
        ] {
            for arguments in [["search", query, "--query-string"], ["search", "emma", "--filter", query]] {
                let result = try await shortcuts.run(arguments)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.error.contains("at column \(column): The offset of $time."), "\(result.error)")
            }
        }
        for query in [String(repeating: "(", count: 30_000), String(repeating: "!", count: 20_000)] {
            let result = try await shortcuts.run(["search", query, "--query-string"])
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("error: invalid query at column 10001: The query is"))
            #expect(result.error.count < 500, "the error shows the text around the column, not the whole query")
        }
        let deep = try await shortcuts.run(["search", String(repeating: "(", count: 5_000), "--query-string"])
        #expect(deep.error.hasPrefix("error: invalid query at column 17: Parentheses nest more than 16 deep"))
        let pattern = try await shortcuts.run(["search", "emma", "--filter", "title == \"" + String(repeating: "a", count: 50_000) + "\""])
        #expect(pattern.status == 1)
        #expect(pattern.error.hasPrefix("error: invalid --filter query at column 10001"))

        // Valid queries that used to overflow SQLite's parser run.
        let hundred = Array(repeating: #"title == "emma"c"#, count: 100).joined(separator: " && ")
        let bangs = String(repeating: "!", count: 40) + #"title == "emma"c"#
        for query in [hundred, bangs] {
            let result = try await shortcuts.run(["search", query, "--query-string", "--index", "library"])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.hasPrefix("1.  Emma"))
            #expect(!result.error.contains("SQLite"))
        }
    }

    @Test func aLongTypedSearchIsCutAtTheWordLimitAndSaysSo() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        let words = (0..<32_000).map { ["em", "au", "st", "pe", "rs"][$0 % 5] }.joined(separator: " ")
        let started = Date()
        let result = try await shortcuts.run(["search", "emma " + words])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.status == 0)
        #expect(result.error.hasPrefix("note: only the first 32 of the 32001 words were searched; a typed search uses at most 32 words\n"))
        #expect(result.output.count < 200, "no long suggestion line")
        let json = try json(try await shortcuts.run(["search", "emma " + words, "--json"]).output)
        #expect(json["leftOutWordCount"] as? Int == 31_969)
    }

    @Test func concurrentSearchesOnOneHomeAllSucceed() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        _ = try await shortcuts.run(["search", "emma"])
        for round in 0..<3 {
            if round == 2 {
                // Fresh index files: every process indexes the data at once.
                try FileManager.default.removeItem(at: shortcuts.home.appendingPathComponent("indexes"))
            }
            let finished = try await withThrowingTaskGroup(of: ShortcutsBinary.Result.self) { group in
                for _ in 0..<8 { group.addTask { try await shortcuts.run(["search", "emma"]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(finished.count == 8)
            for result in finished {
                #expect(result.status == 0, "\(result.error)")
                #expect(result.output.hasPrefix("1.  Emma"), "\(result.output)")
            }
        }
    }

    @Test func reindexSaysWhatItFoundAndDid() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        let unknown = try await shortcuts.run(["index", "reindex", "library", "no-such-id"])
        #expect(unknown.status == 1)
        #expect(unknown.output.isEmpty)
        #expect(unknown.error.hasPrefix("error: no item of library named 'no-such-id'\nhelp: "))

        let found = try await shortcuts.run(["search", "emma", "--json"])
        let hit = try #require((try json(found.output)["results"] as? [[String: Any]])?.first)
        let identifier = try #require(hit["identifier"] as? String)
        let mixed = try await shortcuts.run(["index", "reindex", "library", identifier, "no-such-id"])
        #expect(mixed.status == 0)
        #expect(mixed.output == "Reindexed 1 item of library: \(identifier)\n")
        #expect(mixed.error.hasPrefix("warning: no item of library named 'no-such-id'"))

        #expect(try await shortcuts.run(["perform", "Library.DeleteBook", "book=Emma", "--yes"]).status == 0)
        let gone = try await shortcuts.run(["index", "reindex", "library", identifier])
        #expect(gone.output == "Deleted 1 item of library whose data is gone: \(identifier)\n")
    }

    @Test func jsonNestsValuesAsJSON() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        let search = try json(try await shortcuts.run(["search", "emma", "--json", "--explain"]).output)
        let hit = try #require((search["results"] as? [[String: Any]])?.first)
        #expect(hit["entity"] is [String: Any])
        #expect(hit["explanation"] is [String: Any])
        #expect(hit["score"] is Double)
        #expect(search["suggestions"] is [Any])
        let listed = try await shortcuts.run(["index", "status", "library", "--json"])
        let statuses = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.output.utf8))
                as? [[String: Any]])
        #expect(statuses.first?["itemCountsByDomain"] is [String: Any])
        #expect(statuses.first?["itemCount"] is Int)
    }

    /// Runs a command line and returns its exit status.
    @discardableResult
    func system(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(
        .enabled(
            if: SystemComponents.available("/usr/bin/setpriv", asRoot: true),
            "needs root and setpriv(1) to search as a user who cannot write the home"))
    func aReadOnlyHomeCanBeSearched() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        _ = try await shortcuts.run(["search", "emma"])
        let home = shortcuts.home.path
        try system(["chmod", "-R", "a-w,a+rX", home])
        defer { _ = try? system(["chmod", "-R", "u+w", home]) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "SHORTCUTS_HOME=\(home)",
            ShortcutsBinary.executable.path, "search", "emma"
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("1.  Emma"), "\(text)")
    }
}

extension SearchCommandTests {
    @Test("A caret after Japanese text lines up in a terminal: two cells for each wide character")
    func caretsAfterWideCharacters() async throws {
        let shortcuts = try ShortcutsBinary()
        let query = try await shortcuts.run(["search", #"title == "ねこ" )"#, "--query-string"])
        #expect(query.status == 1)
        #expect(query.error.hasPrefix("error: invalid query at column 15: "), "\(query.error)")
        #expect(query.error.contains("\n  title == \"ねこ\" )\n  " + String(repeating: " ", count: 16) + "^\n"), "\(query.error)")
        let index = try await shortcuts.run(["search", "ねこ", "--index", "librar"])
        #expect(index.status == 1)
        #expect(
            index.error == """
                error: no search index named 'librar'
                  shortcuts search ねこ --index librar
                \(String(repeating: " ", count: 32))^~~~~~
                help: did you mean 'library'?

                """)
    }
}

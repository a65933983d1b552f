import BuiltInApps
import Dashboard
import Foundation
import Testing

@Suite
struct CatalogCommandTests {
    @Test func metadataOnAFreshHomeListsBookPropertiesWithComparatorsAndSortOptions() async throws {
        let shortcuts = try InProcessShortcuts()
        let result = await shortcuts.run(["metadata"])
        #expect(result.status == 0)
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let apps = try #require(metadata["apps"] as? [[String: Any]])
        let builtIn = Set(BuiltInApps.all.map(\.name))
        #expect(apps.compactMap { $0["name"] as? String }.filter { !builtIn.contains($0) } == ["Journal", "Library", "Tags"])
        let library = try #require(apps.first { $0["name"] as? String == "Library" })
        let book = try #require((library["entities"] as? [[String: Any]])?.first { $0["name"] as? String == "Library.BookEntity" })
        let properties = try #require(book["properties"] as? [[String: Any]])
        #expect(properties.map { $0["name"] as? String } == ["title", "author", "datePublished", "dateRead", "shelf"])
        #expect(properties[0]["comparators"] as? [String] == ["equalTo", "notEqualTo", "contains", "hasPrefix", "hasSuffix"])
        #expect(
            properties[2]["comparators"] as? [String]
                == ["equalTo", "lessThan", "lessThanOrEqualTo", "greaterThan", "greaterThanOrEqualTo", "isBetween"])
        #expect(book["sortOptions"] as? [String] == ["title", "author", "datePublished", "dateRead"])
        #expect(!FileManager.default.fileExists(atPath: shortcuts.home.appendingPathComponent("library.sqlite").path))
        // Stable: the same bytes every time.
        #expect(await shortcuts.run(["metadata"]).output == result.output)
    }

    @Test func metadataMatchesItsSchema() async throws {
        let shortcuts = try InProcessShortcuts()
        let metadataFile = shortcuts.home.appendingPathExtension("json")
        try FileManager.default.createDirectory(at: shortcuts.home, withIntermediateDirectories: true)
        try await shortcuts.run(["metadata"]).output.write(to: metadataFile, atomically: true, encoding: .utf8)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Schemas/metadata.schema.json")
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "python3", "-c",
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            jsonschema.validate(json.load(open(sys.argv[2])), schema, cls=jsonschema.Draft202012Validator)
            """, schema.path, metadataFile.path
        ]
        let errors = Pipe()
        check.standardError = errors
        try check.run()
        check.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(check.terminationStatus == 0, "metadata does not match Schemas/metadata.schema.json (python3 with jsonschema is needed): \(message)")
    }

    @Test func listAndViewDescribeTheIntents() async throws {
        let shortcuts = try InProcessShortcuts()
        let intents = await shortcuts.run(["list", "intents"])
        #expect(intents.output.contains("Library.AddBook"))
        #expect(intents.output.contains("Tags.FindPhotos"))
        #expect(intents.output.contains("Journal.SearchEntries"))
        #expect(intents.output.split(separator: "\n").count == 16 + BuiltInApps.all.map(\.intents.count).reduce(0, +))
        let enums = await shortcuts.run(["list", "enums", "--json"])
        #expect(enums.output.contains("\"value\" : \"currentlyReading\""))
        let view = await shortcuts.run(["view", "Library.AddBook"])
        #expect(view.output.contains("Summary: Add [Title]\n         also: authorName, recommendedBy, shelf"))
        #expect(view.output.contains("title          String   required  \"Title\"  asks: Which book do you want to add?"))
        #expect(view.output.contains("shelf          Shelf    default: Want to Read  \"Shelf\""))
        #expect(view.output.contains("Result: ReturnsValue<BookEntity> & OpensIntent & ProvidesDialog"))
        let japanese = await shortcuts.run(["view", "Library.OpenShelf", "--locale", "ja"])
        #expect(japanese.output.hasPrefix("Library.OpenShelf — 本棚を開く"))
    }

    @Test("view NAME shows a workflow of ./Workflows as run NAME finds it; a name that is neither says so")
    func viewFindsWorkflowsByName() async throws {
        let shortcuts = try InProcessShortcuts()
        let byName = await shortcuts.run(["view", "add-and-open"])
        #expect(byName.status == 0, "\(byName.error)")
        #expect(byName.output == (await shortcuts.run(["view", "Workflows/add-and-open.yaml"])).output)
        #expect(byName.output.hasPrefix("Add and open a book\n"))
        let neither = await shortcuts.run(["view", "add-and-opne"])
        #expect(neither.status == 1)
        #expect(neither.error.contains("unknown intent 'add-and-opne'"), "\(neither.error)")
        #expect(neither.error.contains("nor is it a workflow"), "\(neither.error)")
    }

    @Test("help names a command that exists: an unknown one is a usage error with the nearest name")
    func helpOfAnUnknownCommand() async throws {
        let shortcuts = try InProcessShortcuts()
        let unknown = await shortcuts.run(["help", "nosuch"])
        #expect(unknown.status == 64)
        #expect(unknown.output.isEmpty)
        #expect(unknown.error.contains("no command 'nosuch'"), "\(unknown.error)")
        let typo = await shortcuts.run(["help", "runs", "shwo"])
        #expect(typo.status == 64)
        #expect(typo.error.contains("no command 'runs shwo'") && typo.error.contains("did you mean 'show'?"), "\(typo.error)")
        let known = await shortcuts.run(["help", "runs", "show"])
        #expect(known.status == 0)
        #expect(known.output.contains("USAGE: shortcuts runs show"), "\(known.output)")
    }

    @Test("--help lists serve only in a build that can serve; run anyway, it says how to build one")
    func serveIsListedWhereItServes() async throws {
        let shortcuts = try InProcessShortcuts()
        let help = await shortcuts.run(["--help"])
        #expect(help.output.contains("\n  serve ") == DashboardSupport.isBuiltIn, "\(help.output)")
        #expect(help.output.contains("\n  new ") && help.output.contains("\n  service "), "\(help.output)")
        if !DashboardSupport.isBuiltIn {
            let serve = await shortcuts.run(["serve"])
            #expect(serve.status == 1 && serve.error.contains("has no web dashboard"), "\(serve.error)")
        }
    }
}

import Foundation
import Testing

@Suite(.endToEnd)
struct PerformCommandTests {
    @Test func addBookAddsFromTheCatalogSpeaksAndOpensTheBook() async throws {
        let shortcuts = try ShortcutsBinary()
        let added = try await shortcuts.run(["perform", "Library.AddBook", "title=Where the Crawdads Sing"])
        #expect(added.status == 0)
        #expect(
            added.output == """
                Added Where the Crawdads Sing to Library!
                → Library.OpenBook
                  Opened Where the Crawdads Sing.
                Where the Crawdads Sing

                """)
        let screen = try await shortcuts.run(["perform", "Library.CurrentScreen"])
        #expect(screen.output.hasPrefix("The Library shows book: Where the Crawdads Sing."))
        #expect(FileManager.default.fileExists(atPath: shortcuts.home.appendingPathComponent("library.sqlite").path))
    }

    @Test func dialogsAreJapaneseWithLocaleJa() async throws {
        let result = try await ShortcutsBinary().run(["perform", "Library.AddBook", "title=Where the Crawdads Sing", "--locale", "ja"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Where the Crawdads Singをライブラリに追加しました！\n"))
        #expect(result.output.contains("Where the Crawdads Singを開きました。"))
    }

    @Test func jsonOutputCarriesTheReturnedBook() async throws {
        let result = try await ShortcutsBinary().run(["perform", "AddBook", "title=Cry of the Kalahari", "--output-type", "json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let value = object?["value"] as? [String: Any]
        let properties = value?["properties"] as? [String: Any]
        #expect(value?["type"] as? String == "BookEntity")
        #expect(properties?["author"] as? String == "Delia Owens")
        #expect(properties?["datePublished"] as? String == "1984-01-01")
        #expect(((object?["opened"] as? [[String: Any]])?.first?["intent"] as? String) == "Library.OpenBook")
    }

    @Test func anAmbiguousTitleAsksWhoWroteItAndAnAnswerSettlesIt() async throws {
        let shortcuts = try ShortcutsBinary()
        let headless = try await shortcuts.run(["perform", "Library.AddBook", "title=Nemesis", "--no-interaction"])
        #expect(headless.status == 1)
        #expect(
            headless.error == "error: Library.AddBook needs an answer but cannot ask: \"Who wrote the book?\"\nhelp: pass --answer authorName=VALUE\n"
        )
        let answered = try await shortcuts.run(["perform", "Library.AddBook", "title=Nemesis", "--answer", "authorName=Asimov"])
        #expect(answered.status == 0)
        #expect(answered.output.hasPrefix("Added Nemesis to Library!"))
    }

    @Test func aPartialTitleIsConfirmed() async throws {
        let shortcuts = try ShortcutsBinary()
        let unconfirmed = try await shortcuts.run(["perform", "Library.AddBook", "title=crawdads", "--no-interaction"])
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.error.contains("\"Did you mean Where the Crawdads Sing by Delia Owens?\""))
        #expect(unconfirmed.error.contains("--yes, or --answer title=yes"))
        let confirmed = try await shortcuts.run(["perform", "Library.AddBook", "title=crawdads", "--yes"])
        #expect(confirmed.output.hasPrefix("Added Where the Crawdads Sing to Library!"))
    }

    @Test func buyBookShowsTheOrderAndThanks() async throws {
        let shortcuts = try ShortcutsBinary()
        _ = try await shortcuts.run(["perform", "Library.AddBook", "title=Emma"])
        let bought = try await shortcuts.run(["perform", "Library.BuyBook", "book=Emma", "count=2", "--yes"])
        #expect(bought.status == 0)
        #expect(
            bought.output == """
                Thank you for your order!
                ┌─ Ordered ────────────────────────────────────────────────┐
                │ 2 × Emma                                                 │
                └──────────────────────────────────────────────────────────┘
                2 × Emma

                """)
    }

    @Test(arguments: [
        (
            ["perform", "Library.AddBok", "title=x"],
            "error: unknown intent 'Library.AddBok'\n  shortcuts perform Library.AddBok title=x\n                    ^~~~~~~~~~~~~~\nhelp: did you mean 'Library.AddBook'?\nhelp: `shortcuts list intents` lists the installed intents\n"
        ),
        (
            ["perform", "Library.AddBook", "athorName=Delia"],
            "error: unknown parameter 'athorName' for intent 'Library.AddBook'\n  shortcuts perform Library.AddBook athorName=Delia\n                                    ^~~~~~~~~\nhelp: did you mean 'authorName'?\n"
        ),
        (
            ["perform", "Library.BuyBook", "book=Emma", "count=many"],
            "error: invalid value for parameter 'count' of 'Library.BuyBook': cannot use String 'many' as Int (write a whole number such as 3)\n  shortcuts perform Library.BuyBook book=Emma count=many\n                                              ^~~~~\n"
        ),
        (
            ["perform", "Library.OpenShelf", "--no-interaction"],
            "error: Library.OpenShelf needs an answer but cannot ask: \"Which Shelf?\"\nhelp: pass --answer shelf=VALUE\n"
        ),
        (
            ["perform", "Library.OpenShelf", "shelf=attic"],
            "error: invalid value for parameter 'shelf' of 'Library.OpenShelf': cannot use String 'attic' as Shelf (one of currentlyReading, wantToRead, read)\n  shortcuts perform Library.OpenShelf shelf=attic\n                                      ^~~~~\n"
        )
    ])
    func badInputGivesALocatedErrorAndExitOne(arguments: [String], expected: String) async throws {
        let result = try await ShortcutsBinary().run(arguments)
        #expect(result.status == 1)
        #expect(result.error == expected)
        #expect(result.output.isEmpty)
    }

    @Test func malformedArgumentsAreUsageErrors() async throws {
        let result = try await ShortcutsBinary().run(["perform", "Library.AddBook", "title"])
        #expect(result.status == 64)
        #expect(result.error.contains("'title' is not a parameter value: write name=value"))
    }
}

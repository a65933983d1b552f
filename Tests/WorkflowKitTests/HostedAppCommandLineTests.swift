import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import ShortcutsCLI

/// What the command line shows of an app known by its metadata.
struct HostedAppCommandLineTests {
    let catalog = IntentCatalog(apps: [IntentApp(name: "Notes", intents: [ReadNote.self]), BookshopHost().app])

    @Test func viewDescribesAHostedIntentFromItsMetadata() throws {
        let text = IntentView.render(try catalog.intent(named: "Bookshop.AddBook"))
        #expect(
            text == """
                Bookshop.AddBook — Add Book
                Adds a book to the shop.

                Summary: Add [Title]

                Parameters:
                  title  String  required  "Title"
                  pages  Int     required  "Pages"
                  genre  Genre?  optional  "Genre"

                Result: ReturnsValue<BookItem> & ShowsSnippetView
                Opens the app when run: no
                """)
    }

    @Test func metadataPrintsAHostedAppBackAsGiven() throws {
        let printed = try AppMetadata(catalog: catalog).jsonText()
        let decoded = try JSONDecoder().decode(AppMetadata.self, from: Data(printed.utf8))
        #expect(decoded.apps.first { $0.name == "Bookshop" } == BookshopHost.metadata)
        let given = try JSONSerialization.jsonObject(with: Data(BookshopHost.metadataJSON.utf8)) as? NSDictionary
        let apps = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
        let printedApp = (apps?["apps"] as? [NSDictionary])?.first { $0["name"] as? String == "Bookshop" }
        #expect(printedApp == given)
    }

    @Test func completionsOfferHostedIntents() {
        Installation.shared.install(catalog: catalog, commandName: "shortcuts", version: "test", arguments: [])
        defer { Installation.shared.install(catalog: IntentCatalog(apps: []), commandName: "shortcuts", version: "test", arguments: []) }
        #expect(ShellCompletions.intents([], 0, "Bookshop.A") == ["Bookshop.AddBook", "Bookshop.AskTitle"])
    }
}

import Foundation
import Testing

/// `say`, which performs intents of the Library app on its database in the home (the other
/// catalog commands run in process, in ShortcutsCLITests).
@Suite(.endToEnd)
struct SayCommandTests {
    @Test func sayRunsTheShortcutAPhraseNames() async throws {
        let shortcuts = try ShortcutsBinary()
        let shelf = try await shortcuts.run(["say", "Open Want to Read in Library"])
        #expect(shelf.status == 0)
        #expect(try await shortcuts.run(["perform", "CurrentScreen"]).output.hasPrefix("The Library shows shelf: wantToRead."))
        _ = try await shortcuts.run(["perform", "AddBook", "title=Emma"])
        let book = try await shortcuts.run(["say", "open emma in library"])
        #expect(book.output.hasPrefix("Opened Emma."))
        let japanese = try await shortcuts.run(["say", "ライブラリで読んでいる本を開く", "--locale", "ja"])
        #expect(japanese.status == 0)
        #expect(try await shortcuts.run(["perform", "CurrentScreen"]).output.hasPrefix("The Library shows shelf: currentlyReading."))
        let unknown = try await shortcuts.run(["say", "Open Currently Reeding in Library"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("help: did you mean \"Open Currently Reading in Library\"?"))
    }
}

import Foundation
import Testing

/// The Journal examples through the command line: Japanese words inside the text,
/// suggestions that do not misfire.
@Suite(.endToEnd)
struct JournalWordsCommandTests {
    @Test func japaneseWordsInsideTheTextAreFoundAndSuggestedByWord() async throws {
        let shortcuts = try ShortcutsBinary()
        for word in ["嵐山", "紅葉", "渡月橋", "竹林"] {
            let found = try await shortcuts.run(["search", word, "--index", "journal"])
            #expect(found.output.hasPrefix("1.  嵐山の紅葉"), "\(word): \(found.output)")
        }
        #expect(try await shortcuts.run(["search", "江ノ島", "--index", "journal"]).output.hasPrefix("1.  江ノ島でウィンドサーフィン"))
        let suggested = try await shortcuts.run(["perform", "Journal.SuggestSearches", "text=渡"])
        #expect(suggested.output == "渡月橋\n", "\(suggested.output)")
    }

    @Test func suggestionsNeverRespellAWordThatMatched() async throws {
        let shortcuts = try ShortcutsBinary()
        let openShelf = try await shortcuts.run(["search", "open shelf", "--index", "journal"]).output
        #expect(!openShelf.contains("open swell"), "\(openShelf)")
        let tide = try await shortcuts.run(["search", "tide", "--index", "journal"]).output
        #expect(tide.hasPrefix("1.  Tide pools at Point Lobos"))
        #expect(!tide.contains("time"), "\(tide)")
        let typo = try await shortcuts.run(["search", "carmle", "--index", "journal"]).output
        #expect(typo.contains("Did you mean: carmel?"), "\(typo)")
    }
}

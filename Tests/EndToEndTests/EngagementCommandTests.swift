import Foundation
import Testing

/// Opening an item from a search, by an intent or a workflow's `search` step followed by an
/// open, is recorded as engagement, which `search --explain` shows.
@Suite(.endToEnd)
struct EngagementCommandTests {
    /// The `explanation` of a search hit with this title, from `search --explain --json`.
    func explanation(of title: String, searching query: String, index: String, with shortcuts: ShortcutsBinary) async throws -> [String: Any] {
        let output = try await shortcuts.run(["search", query, "--index", index, "--explain", "--json"]).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let hits = try #require(object["results"] as? [[String: Any]])
        let hit = try #require(hits.first { $0["title"] as? String == title }, "\(output)")
        return try #require(hit["explanation"] as? [String: Any])
    }

    @Test func openingAJournalEntryIsShownByExplain() async throws {
        let shortcuts = try ShortcutsBinary()
        let title = "Tide pools at Point Lobos"
        #expect(try await explanation(of: title, searching: "carmel", index: "journal", with: shortcuts)["engagement"] as? Double == 0)
        let opened = try await shortcuts.run(["perform", "Journal.OpenEntry", "entry=\(title)"])
        #expect(opened.status == 0, "\(opened.error)")
        #expect(try await explanation(of: title, searching: "carmel", index: "journal", with: shortcuts)["engagement"] as? Double == 0.5)
        let text = try await shortcuts.run(["search", "carmel", "--index", "journal", "--explain"]).output
        #expect(text.contains("0.25×engagement 0.500"), "\(text)")
    }

    @Test func aSearchStepFollowedByAnOpenRecordsEngagement() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(["run", "Workflows/search-books.yaml", "--no-interaction"])
        #expect(run.status == 0, "\(run.error)")
        let opened = try await explanation(of: "Secrets of the Savanna", searching: "owens", index: "library", with: shortcuts)
        #expect(opened["engagement"] as? Double == 0.5)
        let other = try await explanation(of: "Where the Crawdads Sing", searching: "owens", index: "library", with: shortcuts)
        #expect(other["engagement"] as? Double == 0)
    }
}

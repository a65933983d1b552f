import Foundation
import SearchRelevance
import SpotlightKit
import Testing

/// The committed relevance set in Benchmarks/Relevance, and the checks that keep it usable.
@Suite struct RelevanceSetTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/Relevance")

    @Test func theCommittedSetIsWellFormed() throws {
        let set = try RelevanceSet(contentsOf: Self.directory)
        #expect(set.problems() == [])
        #expect(set.items.count >= 300)
        #expect(set.queries.count >= 60)
        #expect(Set(set.items.map(\.language)) == ["en", "ja"])
        #expect(Set(set.items.map(\.kind)) == ["journal", "book"])
        #expect(set.queries.filter { $0.language == "ja" }.count >= 10)
        for kind in ["exact", "synonym", "paraphrase", "misspelling", "crossLanguage"] {
            #expect(set.queries.contains { $0.kinds.contains(kind) }, "no query of kind \(kind)")
        }
    }

    @Test func theIssuesQueriesAreJudgedWithTheirJournalEntries() throws {
        let set = try RelevanceSet(contentsOf: Self.directory)
        func grade(_ text: String, _ item: String) -> Int? {
            set.queries.first { $0.text == text }?.judgements[item]
        }
        #expect(grade("jogging", "j-run-river") == 3)
        #expect(grade("runs", "j-run-river") == 3)
        #expect(grade("Kyoto", "j-arashiyama-koyo") == 3)
        #expect(grade("autumn leaves", "j-arashiyama-koyo") == 3)
        #expect(grade("windsurfing", "j-enoshima-windsurf") == 3)
        #expect(grade("sailing", "j-dinghy-bay") == 3)
        #expect(grade("surfing", "j-surf-pacifica") == 3)
    }

    @Test func theJournalsSampleEntriesAreInTheSet() throws {
        let set = try RelevanceSet(contentsOf: Self.directory)
        let titles = Set(set.items.map(\.title))
        for title in [
            "Windsurfing in Carmel", "Tide pools at Point Lobos", "Sourdough, third try", "江ノ島でウィンドサーフィン", "Reading on the porch",
            "Morning run by the river", "嵐山の紅葉"
        ] {
            #expect(titles.contains(title), "missing \(title)")
        }
    }

    @Test func problemsNameEachMistakeWithADidYouMean() {
        let set = RelevanceSet(
            items: [
                RelevanceItem(id: "j-run-river", kind: "journal", language: "en", title: "Run", text: "By the river."),
                RelevanceItem(id: "j-run-river", kind: "journal", language: "en", title: "Run again", text: "Twice.")
            ],
            queries: [
                RelevanceQuery(id: "q-typo", text: "jogging", judgements: ["j-run-rivr": 3]),
                RelevanceQuery(id: "q-grade", text: "running", judgements: ["j-run-river": 4]),
                RelevanceQuery(id: "q-none", text: "sailing", judgements: [:])
            ])
        #expect(
            set.problems() == [
                "items.json: item 'j-run-river' appears more than once",
                "queries.json: q-typo: judges 'j-run-rivr', which is not an item\nhelp: did you mean 'j-run-river'?",
                "queries.json: q-grade: grade 4 for 'j-run-river' is outside 1–3 (leave unrelated items out)",
                "queries.json: q-none: no item is judged relevant"
            ])
    }

    @Test func aMissingFieldIsReportedWithItsFileAndPlace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relevance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"[{"id": "a", "kind": "journal", "language": "en", "title": "A", "text": "a", "keywords": []}]"#.utf8)
            .write(to: directory.appendingPathComponent("items.json"))
        try Data(#"[{"id": "q", "language": "en", "kinds": [], "judgements": {"a": 3}}]"#.utf8)
            .write(to: directory.appendingPathComponent("queries.json"))
        #expect(throws: RelevanceSetError.self) { try RelevanceSet(contentsOf: directory) }
        do {
            _ = try RelevanceSet(contentsOf: directory)
        } catch let error as RelevanceSetError {
            #expect(error.file.hasSuffix("queries.json"))
            #expect(error.problem == "lacks 'text' at [0]")
        }
    }

    @Test func anItemBecomesASearchableItemWithItsAuthorAsAKeyword() {
        let item = RelevanceItem(
            id: "b-moby-dick", kind: "book", language: "en", title: "Moby-Dick", author: "Herman Melville", date: "1851",
            text: "A whaling ship.", keywords: ["sea"])
        let searchable = item.searchableItem
        #expect(searchable.uniqueIdentifier == "b-moby-dick")
        #expect(searchable.attributeSet.title == "Moby-Dick")
        #expect(searchable.attributeSet.textContent == "A whaling ship.")
        #expect(searchable.attributeSet.keywords == ["sea", "Herman Melville"])
        #expect(item.embeddingText == "Moby-Dick. sea, Herman Melville. A whaling ship.")
    }
}

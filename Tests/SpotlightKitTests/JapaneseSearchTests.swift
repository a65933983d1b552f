import Foundation
import GRDB
import Testing

@testable import SpotlightKit

/// Japanese (and other CJK) words found inside runs of text, through the character-pair table.
@Suite("Japanese by words")
struct JapaneseSearchTests {
    static let arashiyama = "朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は人が少なく静か。"
    static let enoshima = "江ノ島の海で初めてのウィンドサーフィン。風が強く、何度も落ちたが楽しかった。"

    func titles(_ text: String, in index: SearchableIndex) async throws -> [String] {
        try await userSearch(text, context: UserQueryContext(fetchAttributes: ["title"]), in: index).items
            .compactMap(\.item.attributeSet.title)
    }

    @Test func segmenterMakesCharacterPairsOfCJKRunsOnly() {
        #expect(CJKSegmenter.bigramDocument("嵐山の紅葉") == "嵐山 山の の紅 紅葉 葉")
        #expect(CJKSegmenter.bigramDocument("Carmel 海 beach") == "海")
        #expect(CJKSegmenter.bigramDocument("Windsurfing in Carmel") == nil)
        #expect(CJKSegmenter.runs(in: "ｳｨﾝﾄﾞ and 京都") == ["ウィンド", "京都"], "half-width katakana is read as full width")
        #expect(CJKSegmenter.searchedSegments(of: "京都の紅葉") == ["京都", "紅葉"])
        #expect(CJKSegmenter.searchedSegments(of: "江ノ島") == ["江ノ島"])
        #expect(CJKSegmenter.searchedSegments(of: "かった") == ["かった"])
        #expect(CJKSegmenter.suggestionWords(in: Self.arashiyama) == ["朝早", "嵐山", "渡月橋", "紅葉", "見事", "竹林"])
    }

    @Test func wordsInsideJapaneseTextAreFound() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "秋の一日", text: Self.arashiyama),
            textItem("2", title: "海の一日", text: Self.enoshima),
            textItem("3", title: "Windsurfing in Carmel", text: "Three hours of windsurfing at Carmel River State Beach.")
        ])
        // Before, only the start of each run of characters was found: 朝早く嵐山へ, never 嵐山.
        #expect(try await titles("嵐山", in: index) == ["秋の一日"])
        #expect(try await titles("紅葉", in: index) == ["秋の一日"])
        #expect(try await titles("渡月橋", in: index) == ["秋の一日"])
        #expect(try await titles("ウィンドサーフィン", in: index) == ["海の一日"])
        #expect(try await titles("江ノ島", in: index) == ["海の一日"])
        // One character, particles between words, several words, and words with other scripts.
        #expect(Set(try await titles("一日", in: index)) == ["秋の一日", "海の一日"])
        #expect(try await titles("京都の紅葉", in: index).isEmpty, "every word must be found: 京都 is not")
        #expect(try await titles("嵐山の紅葉", in: index) == ["秋の一日"])
        #expect(try await titles("竹林 紅葉", in: index) == ["秋の一日"])
        #expect(try await titles("紅葉 carmel", in: index).isEmpty)
        try await index.indexSearchableItems([textItem("4", title: "Carmel 日記", text: "Carmelの海は冷たい。")])
        #expect(try await titles("carmel 海", in: index) == ["Carmel 日記"], "a word and a CJK word together")
        #expect(try await titles("Carmelの海", in: index) == ["Carmel 日記"], "one typed word of both scripts")
        #expect(try await titles("windsurfing", in: index) == ["Windsurfing in Carmel"])
        #expect(try await titles("葉紅", in: index).isEmpty, "the pairs are in order")
    }

    @Test func theCharacterPairsFollowUpdatesDeletesAndExpiry() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([textItem("1", title: "秋", text: Self.arashiyama)])
        #expect(try await titles("竹林", in: index) == ["秋"])
        try await index.indexSearchableItems([textItem("1", title: "秋", text: "京都の寺を歩いた。")])
        #expect(try await titles("竹林", in: index).isEmpty)
        #expect(try await titles("寺", in: index) == ["秋"])
        try await index.deleteSearchableItems(withIdentifiers: ["1"])
        #expect(try await titles("寺", in: index).isEmpty)
        let rows = try await index.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightItemCJK") }
        #expect(rows == 0)

        try await index.indexSearchableItems([textItem("2", title: "夏", text: "江ノ島", expires: Date().addingTimeInterval(3600))])
        #expect(try await titles("江ノ島", in: index) == ["夏"])
        try await index.purgeExpiredItems(now: Date().addingTimeInterval(7200))
        #expect(try await titles("江ノ島", in: index).isEmpty)
    }

    @Test func anIndexMadeBeforeTheCharacterPairsIsFilledByTheMigration() async throws {
        let queue = try DatabaseQueue()
        // Run the schema up to, not including, the character pairs, then store an item the old way.
        try IndexSchema.migrator.migrate(queue, upTo: "SpotlightKit.v2.fullTextBuffer")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO spotlightIndex (id, name, createdAt) VALUES (1, 'default', 0)")
            try db.execute(
                sql: """
                    INSERT INTO spotlightItem (id, indexId, uniqueIdentifier, title, textContent, indexedAt)
                    VALUES (7, 1, 'old', 'Old entry', ?, 0)
                    """, arguments: [Self.arashiyama])
            try db.execute(
                sql: "INSERT INTO spotlightItemFTS (rowid, title, textContent) VALUES (7, 'Old entry', ?)",
                arguments: [Self.arashiyama])
        }
        let index = try SearchableIndex(name: "default", database: queue)
        #expect(try await titles("紅葉", in: index) == ["Old entry"])
    }

    @Test func rankingWeighsTheTitleOfCJKMatchesLikeWords() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("text", title: "旅の記録", text: "帰りに紅葉を見た。"),
            textItem("title", title: "紅葉の季節", text: "山へ行った。")
        ])
        let items = try await userSearch("紅葉", context: UserQueryContext(fetchAttributes: ["title"]), in: index).items
        #expect(items.map(\.item.uniqueIdentifier) == ["title", "text"])
        #expect(items.first?.explanation.relevance == 1)
        #expect(items.allSatisfy { $0.explanation.bm25 > 0 })
    }
}

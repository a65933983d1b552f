import Foundation
import SpotlightKit
import Testing

@testable import JournalApp

/// The Journal examples: Japanese words inside text, suggestions that do not misfire,
/// and opening an entry recorded as engagement.
extension JournalSearchTests {
    @Test func japaneseWordsAreFoundInsideTheText() async throws {
        try await indexer.prepareForSearch()
        // Only in the text of 嵐山の紅葉 (朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は…).
        #expect(try await titles("渡月橋") == ["嵐山の紅葉"])
        #expect(try await titles("竹林") == ["嵐山の紅葉"])
        #expect(try await titles("見事") == ["嵐山の紅葉"])
        #expect(try await titles("嵐山") == ["嵐山の紅葉"])
        #expect(try await titles("紅葉") == ["嵐山の紅葉"])
        #expect(try await titles("京都の紅葉") == ["嵐山の紅葉"])
        #expect(try await titles("風") == ["江ノ島でウィンドサーフィン"])
        #expect(try await titles("海") == ["江ノ島でウィンドサーフィン"])
    }

    @Test func suggestionsDoNotMisfire() async throws {
        try await indexer.prepareForSearch()
        let openShelf = try await search("open shelf", suggestions: 3).suggestions.map(\.text)
        #expect(!openShelf.contains("open swell"), "\(openShelf)")
        let tide = try await search("tide", suggestions: 3).suggestions.map(\.text)
        #expect(!tide.contains("time"), "\(tide)")
        // Japanese suggestions are words, not the clauses the word index holds.
        let japanese = try await search("渡", suggestions: 3).suggestions.map(\.text)
        #expect(japanese == ["渡月橋"])
        #expect(try await search("紅", suggestions: 3).suggestions.map(\.text) == ["紅葉"])
        #expect(try await search("ウィンド", suggestions: 3).suggestions.map(\.text) == ["ウィンドサーフィン"])
    }

    @Test func engagementRecordedByAnOpenRaisesTheEntry() async throws {
        try await indexer.prepareForSearch()
        let lobos = try #require(try database.allEntries().first { $0.title == "Tide pools at Point Lobos" })
        func lobosResult() async throws -> UserQuery.Item {
            try #require(try await search("carmel").items.first { $0.item.attributeSet.title == lobos.title })
        }
        let before = try await lobosResult()
        #expect(before.explanation.engagement == 0)
        for _ in 0..<3 { try await indexer.searchableIndex.recordEngagement(with: lobos) }
        let after = try await lobosResult()
        #expect(after.explanation.engagement == 0.75, "3 openings: 3 / (3 + 1)")
        #expect(abs(after.score - before.score - 0.25 * 0.75) < 1e-9)
    }
}

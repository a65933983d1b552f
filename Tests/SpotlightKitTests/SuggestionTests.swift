import Foundation
import Testing

@testable import SpotlightKit

/// Suggestions from the index vocabulary: never a worse spelling of a word that matched,
/// corrections that find something, Japanese completed by word.
@Suite("Suggestions")
struct SuggestionTests {
    func suggestions(_ text: String, in index: SearchableIndex, count: Int = 3) async throws -> [UserQuery.Suggestion] {
        try await userSearch(text, context: UserQueryContext(maxSuggestionCount: count), in: index).suggestions
    }

    /// The Journal's English entries, as far as the examples need them.
    func journal() async throws -> SearchableIndex {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem(
                "windsurfing", title: "Windsurfing in Carmel",
                text: "Three hours of windsurfing; the water was cold but the swell was kind.", keywords: ["windsurfing", "Carmel"]),
            textItem("tide", title: "Tide pools at Point Lobos", text: "Low tide at Point Lobos.", keywords: ["tide pools", "Carmel"]),
            textItem("bread", title: "Sourdough, third try", text: "The crumb is still tight; next time a longer bulk ferment.")
        ])
        return index
    }

    @Test func aWordThatMatchedIsNeverCorrected() async throws {
        let index = try await journal()
        // `tide` is a word of the index: "time" would be a worse spelling of it.
        let tide = try await suggestions("tide", in: index)
        #expect(!tide.map(\.text).contains("time"))
        #expect(tide.allSatisfy { $0.kind == .completion })
        #expect(try await suggestions("tide po", in: index).map(\.text) == ["tide point", "tide pools"])
    }

    @Test func aCorrectionMustFindSomething() async throws {
        let index = try await journal()
        // Nothing holds `open`, so "open swell" would find nothing either; and `swell` is two edits from `shelf`.
        #expect(try await suggestions("open shelf", in: index).isEmpty)
        #expect(try await suggestions("shelf", in: index).isEmpty)
        // A near miss that finds something is still corrected.
        #expect(try await suggestions("carmle", in: index).first?.text == "carmel")
        #expect(try await suggestions("windsurfing carmle", in: index).first?.text == "windsurfing carmel")
        #expect(try await suggestions("swel", in: index).first?.text == "swell")
    }

    @Test func correctionsWeighDistanceAgainstFrequency() async throws {
        #expect(SuggestionEngine.correctionCost(distance: 1, count: 3) < SuggestionEngine.correctionCost(distance: 1, count: 1))
        #expect(SuggestionEngine.correctionCost(distance: 2, count: 15) == SuggestionEngine.correctionCost(distance: 1, count: 0))
        #expect(SuggestionEngine.correctionCost(distance: 2, count: 100) < SuggestionEngine.correctionCost(distance: 1, count: 1))
        #expect(SuggestionEngine.maxDistance(forLength: 5) == 1)
        #expect(SuggestionEngine.maxDistance(forLength: 7) == 2)

        let index = try makeIndex()
        try await index.indexSearchableItems(
            [
                textItem("1", title: "Carmen"), textItem("2", title: "Carmel"), textItem("3", title: "Carmel river"),
                textItem("4", title: "Carmel beach")
            ])
        #expect(try await suggestions("carmek", in: index).map(\.text) == ["carmel", "carmen"])
    }

    @Test func aSuggestionCountOfAnySizeIsServed() async throws {
        let index = try await journal()
        // Four candidates are read for each suggestion wanted: four times the count must not overflow.
        #expect(try await suggestions("tide po", in: index, count: .max).map(\.text) == ["tide point", "tide pools"])
        #expect(try await suggestions("carmle", in: index, count: .max).first?.text == "carmel")
        var context = UserQueryContext(maxSuggestionCount: .max / 4 + 1)
        context.maxResultCount = 1
        #expect(try await userSearch("swel", context: context, in: index).suggestions.first?.text == "swell")
    }

    @Test func completionsThatAppearWithTheWordsBeforeComeFirst() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "River trip"), textItem("2", title: "Tea time"), textItem("3", title: "Time out"),
            textItem("4", title: "Time zones")
        ])
        #expect(try await suggestions("t", in: index).map(\.text).first == "time")
        #expect(try await suggestions("river t", in: index).map(\.text) == ["river trip", "river time", "river tea"])
    }

    @Test func japaneseIsCompletedByWordNotByClause() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "嵐山の紅葉", text: JapaneseSearchTests.arashiyama, keywords: ["京都", "嵐山", "紅葉"]),
            textItem("2", title: "江ノ島でウィンドサーフィン", text: JapaneseSearchTests.enoshima, keywords: ["ウィンドサーフィン", "江ノ島", "海"])
        ])
        #expect(try await suggestions("渡", in: index).map(\.text) == ["渡月橋"])
        #expect(try await suggestions("紅", in: index).map(\.text) == ["紅葉"])
        #expect(try await suggestions("ウィ", in: index).map(\.text) == ["ウィンドサーフィン"])
        #expect(try await suggestions("江", in: index).map(\.text) == ["江ノ島"])
        #expect(try await suggestions("嵐山の紅", in: index).map(\.text) == ["嵐山の紅葉"])
        #expect(try await suggestions("京都 紅", in: index).map(\.text) == ["京都 紅葉"])
        // A whole word, or one followed by a particle, is not completed into a clause.
        #expect(try await suggestions("紅葉", in: index).isEmpty)
        #expect(try await suggestions("嵐山へ", in: index).isEmpty)
        let all = try await suggestions("見", in: index, count: 10).map(\.text)
        #expect(all == ["見事"])
        #expect(try await suggestions("紅", in: index).first?.matchCount == 1)
    }
}

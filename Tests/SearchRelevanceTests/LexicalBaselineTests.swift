import Foundation
import SearchRelevance
import SpotlightKit
import Testing

/// The committed set searched by words alone: the queries marked `exact` must be answerable by
/// their words, and the distractors must not be judged relevant.
@Suite struct LexicalBaselineTests {
    static func lexicalEvaluation() async throws -> (RelevanceSet, RelevanceEvaluation) {
        let set = try RelevanceSet(contentsOf: RelevanceSetTests.directory)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relevance-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let index = try SearchableIndex(name: "relevance", databasePath: path)
        try await index.indexSearchableItems(set.items.map(\.searchableItem))
        var context = UserQueryContext(maxResultCount: 20)
        context.retrieval = .lexical
        let evaluation = try await RelevanceEvaluation(set: set) { query in
            var ranking: [String] = []
            let results = UserQuery(userQueryString: query.text, context: context, index: index).responses
            for try await response in results {
                if case .item(let item) = response { ranking.append(item.id) }
            }
            return ranking
        }
        return (set, evaluation)
    }

    @Test func everyExactEnglishQueryFindsAClearlyRelevantItemInItsTopThreeByWords() async throws {
        let (_, evaluation) = try await Self.lexicalEvaluation()
        let exact = evaluation.filter { $0.kinds.contains("exact") && $0.language == "en" }
        #expect(exact.results.count >= 20)
        for result in exact.results {
            #expect((result.firstHighlyRelevantRank ?? .max) <= 3, "\(result.query.text): \(result.ranking.prefix(3))")
        }
    }

    @Test func wordsAloneFindNothingForParaphrasesAndMisspellings() async throws {
        let (_, evaluation) = try await Self.lexicalEvaluation()
        let misspelt = evaluation.filter { $0.kinds.contains("misspelling") }
        #expect(misspelt.meanNormalizedDiscountedCumulativeGain == 0)
        #expect(evaluation.filter { $0.kinds.contains("paraphrase") }.meanNormalizedDiscountedCumulativeGain < 0.1)
    }

    @Test func distractorsThatShareAWordAreFoundButNotJudgedRelevant() async throws {
        let (set, evaluation) = try await Self.lexicalEvaluation()
        let runs = try #require(evaluation.results.first { $0.query.text == "runs" })
        #expect(runs.ranking.first == "b-runaway")
        #expect(set.queries.first { $0.text == "runs" }?.judgements["b-runaway"] == nil)
    }
}

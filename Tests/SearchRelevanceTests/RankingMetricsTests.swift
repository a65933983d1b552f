import Foundation
import SearchRelevance
import Testing

/// nDCG and recall on a tiny example worked out by hand.
///
/// Judgements: a = 3, c = 2, d = 1 (b is unjudged, so 0). Gains 2^g − 1: a 7, c 3, d 1.
/// Ideal DCG@3 = 7/log2(2) + 3/log2(3) + 1/log2(4) = 7 + 1.892789 + 0.5 = 9.392789.
@Suite struct RankingMetricsTests {
    let judgements = ["a": 3, "c": 2, "d": 1]

    @Test func gainsAreExponentialInTheGrade() {
        #expect([0, 1, 2, 3].map(RankingMetrics.gain(ofGrade:)) == [0, 1, 3, 7])
    }

    @Test func discountedCumulativeGainOfAHandCheckedRanking() {
        // a at rank 1: 7/1; b: 0; c at rank 3: 3/log2(4) = 1.5.
        #expect(abs(RankingMetrics.discountedCumulativeGain(of: ["a", "b", "c"], judgements: judgements, cutoff: 3) - 8.5) < 1e-12)
    }

    @Test func normalizedDiscountedCumulativeGainOfHandCheckedRankings() {
        // 8.5 / 9.392789
        #expect(
            abs(RankingMetrics.normalizedDiscountedCumulativeGain(of: ["a", "b", "c"], judgements: judgements, cutoff: 3) - 0.904950) < 1e-6)
        // c first: 3/1 + 0 + 7/2 = 6.5; 6.5 / 9.392789
        #expect(
            abs(RankingMetrics.normalizedDiscountedCumulativeGain(of: ["c", "b", "a"], judgements: judgements, cutoff: 3) - 0.692020) < 1e-6)
        // The ideal order scores 1, an unjudged first result at cutoff 1 scores 0.
        #expect(RankingMetrics.normalizedDiscountedCumulativeGain(of: ["a", "c", "d"], judgements: judgements, cutoff: 3) == 1)
        #expect(RankingMetrics.normalizedDiscountedCumulativeGain(of: ["b", "a"], judgements: judgements, cutoff: 1) == 0)
        #expect(RankingMetrics.normalizedDiscountedCumulativeGain(of: [], judgements: judgements, cutoff: 10) == 0)
    }

    @Test func aResultListedTwiceCountsOnce() {
        // [a, a, c] is [a, c]: 7 + 3/log2(3) = 8.892789; / 9.392789
        #expect(
            abs(RankingMetrics.normalizedDiscountedCumulativeGain(of: ["a", "a", "c"], judgements: judgements, cutoff: 3) - 0.946768) < 1e-6)
    }

    @Test func recallCountsEveryGradedItemWithinTheCutoff() {
        #expect(RankingMetrics.recall(of: ["a", "b", "c"], judgements: judgements, cutoff: 2) == 1.0 / 3)
        #expect(RankingMetrics.recall(of: ["a", "b", "c"], judgements: judgements, cutoff: 3) == 2.0 / 3)
        #expect(RankingMetrics.recall(of: ["d", "c", "a"], judgements: judgements, cutoff: 20) == 1)
        #expect(RankingMetrics.recall(of: ["a"], judgements: [:], cutoff: 20) == 0)
    }

    @Test func anEvaluationAveragesOverQueriesAndFindsTheFirstHighlyRelevantRank() async {
        let set = RelevanceSet(
            items: [],
            queries: [
                RelevanceQuery(id: "q1", text: "one", language: "en", judgements: judgements),
                RelevanceQuery(id: "q2", text: "二", language: "ja", judgements: ["b": 2])
            ])
        let evaluation = await RelevanceEvaluation(set: set) { query in query.id == "q1" ? ["b", "d", "c"] : ["a", "b"] }
        // q1: DCG@10 = 0 + 1/log2(3) + 3/log2(4) = 2.130930, / 9.392789; q2: 3/log2(3) / 3.
        let first = (1 / log2(3.0) + 1.5) / 9.392789
        let second = (3 / log2(3.0)) / 3
        #expect(abs(evaluation.meanNormalizedDiscountedCumulativeGain - (first + second) / 2) < 1e-6)
        #expect(abs(evaluation.meanRecall - (2.0 / 3 + 1) / 2) < 1e-12)
        #expect(evaluation.results.map(\.firstHighlyRelevantRank) == [3, 2])
        #expect(evaluation.filter { $0.language == "ja" }.results.map(\.query.id) == ["q2"])
    }
}

import Foundation

/// Graded-relevance measures of one ranked list of results.
///
/// Gains are exponential (`2^grade − 1`), discounts logarithmic (`log2(rank + 1)`), as in
/// Järvelin and Kekäläinen's nDCG with Burges' gain; recall counts every item graded 1 or more.
///
/// ```swift
/// let judgements = ["a": 3, "c": 2, "d": 1]
/// RankingMetrics.normalizedDiscountedCumulativeGain(of: ["a", "b", "c"], judgements: judgements, cutoff: 3)  // 0.905
/// RankingMetrics.recall(of: ["a", "b", "c"], judgements: judgements, cutoff: 2)                             // 1/3
/// ```
public enum RankingMetrics {
    /// The gain of an item of a grade: `2^grade − 1`, so 0, 1, 3, 7.
    ///
    /// ```swift
    /// RankingMetrics.gain(ofGrade: 3)  // 7
    /// ```
    ///
    /// - Parameter grade: The judged grade, 0 for an unjudged item.
    /// - Returns: The gain.
    public static func gain(ofGrade grade: Int) -> Double {
        grade > 0 ? pow(2, Double(grade)) - 1 : 0
    }

    /// The discounted cumulative gain of the first `cutoff` results.
    ///
    /// ```swift
    /// RankingMetrics.discountedCumulativeGain(of: ["a", "b", "c"], judgements: ["a": 3, "c": 2], cutoff: 3)  // 7 + 3/2
    /// ```
    ///
    /// - Parameters:
    ///   - ranking: Item identifiers, best first.
    ///   - judgements: Grade by item identifier; missing items count 0.
    ///   - cutoff: How many results count (the k of DCG@k).
    /// - Returns: Σ gain(grade at rank r) / log2(r + 1) over r = 1…k.
    public static func discountedCumulativeGain(of ranking: [String], judgements: [String: Int], cutoff: Int) -> Double {
        discountedCumulativeGain(ofGrades: ranking.prefix(cutoff).map { judgements[$0] ?? 0 })
    }

    /// DCG@k divided by the DCG@k of the ideal ranking of the judged items; 0 when nothing is judged relevant.
    ///
    /// ```swift
    /// RankingMetrics.normalizedDiscountedCumulativeGain(of: ["c", "a"], judgements: ["a": 3, "c": 2], cutoff: 10)
    /// ```
    ///
    /// - Parameters:
    ///   - ranking: Item identifiers, best first; an identifier listed twice counts once.
    ///   - judgements: Grade by item identifier.
    ///   - cutoff: How many results count.
    /// - Returns: A value in 0…1.
    public static func normalizedDiscountedCumulativeGain(of ranking: [String], judgements: [String: Int], cutoff: Int) -> Double {
        let ideal = discountedCumulativeGain(ofGrades: Array(judgements.values.filter { $0 > 0 }.sorted(by: >).prefix(cutoff)))
        guard ideal > 0 else { return 0 }
        return discountedCumulativeGain(of: unique(ranking), judgements: judgements, cutoff: cutoff) / ideal
    }

    /// The share of the relevant items (grade ≥ 1) found in the first `cutoff` results.
    ///
    /// ```swift
    /// RankingMetrics.recall(of: ["a", "b"], judgements: ["a": 3, "c": 1], cutoff: 20)  // 0.5
    /// ```
    ///
    /// - Parameters:
    ///   - ranking: Item identifiers, best first.
    ///   - judgements: Grade by item identifier.
    ///   - cutoff: How many results count.
    /// - Returns: A value in 0…1; 0 when nothing is judged relevant.
    public static func recall(of ranking: [String], judgements: [String: Int], cutoff: Int) -> Double {
        let relevant = Set(judgements.filter { $0.value > 0 }.keys)
        guard !relevant.isEmpty else { return 0 }
        return Double(Set(ranking.prefix(cutoff)).intersection(relevant).count) / Double(relevant.count)
    }

    private static func discountedCumulativeGain(ofGrades grades: [Int]) -> Double {
        grades.enumerated().reduce(0) { sum, element in sum + gain(ofGrade: element.element) / log2(Double(element.offset + 2)) }
    }

    private static func unique(_ ranking: [String]) -> [String] {
        var seen: Set<String> = []
        return ranking.filter { seen.insert($0).inserted }
    }
}

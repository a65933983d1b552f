import IntentKit

extension ScoreExplanation {
    /// One weighted signal of a score: `weight × value`.
    package struct Term: Sendable, Hashable {
        /// The signal: `relevance`, `freshness`, `engagement` or `hint`.
        package var name: String
        /// Its weight in the score.
        package var weight: Double
        /// The signal, 0…1.
        package var value: Double
        /// What it adds to the score.
        package var contribution: Double { weight * value }
    }

    /// The four weighted signals whose sum is ``total``, in the order ``description`` writes them.
    ///
    /// ```swift
    /// for term in explanation.terms { print(term.name, term.weight, term.value) }   // relevance 0.5 1.0 …
    /// ```
    package var terms: [Term] {
        [
            Term(name: "relevance", weight: Ranking.relevanceWeight, value: relevance),
            Term(name: "freshness", weight: Ranking.freshnessWeight, value: freshness),
            Term(name: "engagement", weight: Ranking.engagementWeight, value: engagement),
            Term(name: "hint", weight: Ranking.hintWeight, value: hint)
        ]
    }

    /// How the relevance was found, in words: `bm25 7.310`, or the fusion's ranks and scores
    /// (`rrf 0.0164: words no match, meaning #1 cosine 0.310`).
    package var relevanceDetail: String { relevanceParts }

    /// The explanation as `search --json --explain` prints it: `bm25`, `relevance`, `freshness`,
    /// `engagement`, `hint`, `total`, and `semantic` and `fusion` when meaning took part.
    ///
    /// - Parameter rounded: How numbers are rounded, so that the output is stable.
    /// - Returns: The object's entries.
    package func jsonObject(rounded: (Double) -> Double) -> [String: IntentValue] {
        var parts: [String: IntentValue] = [
            "bm25": .double(rounded(bm25)), "relevance": .double(rounded(relevance)),
            "freshness": .double(rounded(freshness)), "engagement": .double(rounded(engagement)),
            "hint": .double(rounded(hint)), "total": .double(rounded(total))
        ]
        if let semantic { parts["semantic"] = .double(rounded(semantic)) }
        guard let fusion else { return parts }
        var fused: [String: IntentValue] = ["score": .double(rounded(fusion.score))]
        switch fusion.method {
        case .reciprocalRank: fused["method"] = .string("reciprocalRank")
        case .weightedSum: fused["method"] = .string("weightedSum")
        }
        if let rank = fusion.lexicalRank { fused["lexicalRank"] = .int(rank) }
        if let rank = fusion.semanticRank { fused["semanticRank"] = .int(rank) }
        parts["fusion"] = .dictionary(fused)
        return parts
    }
}

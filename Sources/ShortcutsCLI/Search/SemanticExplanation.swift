import IntentKit
import SpotlightKit

/// The semantic parts of a score explanation in `search --json --explain`.
enum SemanticExplanation {
    static func add(_ explanation: ScoreExplanation, to parts: inout [String: IntentValue], rounded: (Double) -> Double) {
        if let cosine = explanation.semantic { parts["semantic"] = .double(rounded(cosine)) }
        guard let fusion = explanation.fusion else { return }
        var fused: [String: IntentValue] = ["score": .double(rounded(fusion.score))]
        switch fusion.method {
        case .reciprocalRank: fused["method"] = .string("reciprocalRank")
        case .weightedSum: fused["method"] = .string("weightedSum")
        }
        if let rank = fusion.lexicalRank { fused["lexicalRank"] = .int(rank) }
        if let rank = fusion.semanticRank { fused["semanticRank"] = .int(rank) }
        parts["fusion"] = .dictionary(fused)
    }
}

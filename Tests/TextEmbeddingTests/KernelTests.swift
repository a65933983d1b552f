import EmbeddingKernels
import Foundation
import Testing

@Suite("Embedding kernels")
struct KernelTests {
    @Test("A dot product of any length equals the sum written out")
    func dot() {
        for count in [0, 1, 7, 16, 17, 384] {
            let x = (0..<count).map { Float(($0 * 7 % 13) - 6) / 8 }
            let y = (0..<count).map { Float(($0 * 5 % 11) - 5) / 4 }
            let expected = (0..<count).reduce(Float(0)) { $0 + x[$1] * y[$1] }
            #expect(abs(ek_dot(x, y, Int32(count)) - expected) <= 1e-4, "count \(count)")
        }
    }

    @Test("An int8 scan scores each row by its scale, the query's scale and the integer dot product")
    func int8Scan() {
        let dimension = 19
        let matrix: [Int8] = (0..<(3 * dimension)).map { Int8(truncatingIfNeeded: $0 * 37 % 255 - 127) }
        let query: [Int8] = (0..<dimension).map { Int8(truncatingIfNeeded: $0 * 11 % 255 - 127) }
        let scales: [Float] = [0.5, 1, 2]
        var scores = [Float](repeating: 0, count: 3)
        ek_int8_scan(matrix, scales, 3, Int32(dimension), query, 0.25, &scores)
        for row in 0..<3 {
            let dot = (0..<dimension).reduce(0) { $0 + Int(matrix[row * dimension + $1]) * Int(query[$1]) }
            #expect(scores[row] == scales[row] * 0.25 * Float(dot))
        }
    }

    @Test("The kernels name the variant the processor runs")
    func variant() {
        let name = String(cString: ek_variant())
        #expect(["x86-64-v3", "baseline"].contains(name))
    }
}

@Suite("Transformer kernels")
struct TransformerKernelTests {
    @Test("A strided linear layer equals the sums written out, for every remainder of the AVX-512 (tiled and packed) and AVX2 kernels")
    func linear() {
        for (m, n, k) in [(1, 1, 1), (3, 5, 7), (4, 4, 16), (5, 9, 19), (6, 13, 33), (9, 12, 384), (70, 37, 40), (64, 64, 17)] {
            let lda = k + 3
            let ldc = n + 5
            let a = (0..<(m * lda)).map { Float(($0 * 7 % 13) - 6) / 8 }
            let b = (0..<(n * k)).map { Float(($0 * 5 % 11) - 5) / 4 }
            let bias = (0..<n).map { Float($0) / 2 }
            var c = [Float](repeating: .nan, count: m * ldc)
            ek_linear(Int32(m), Int32(n), Int32(k), a, Int32(lda), b, bias, &c, Int32(ldc))
            for i in 0..<m {
                for j in 0..<ldc {
                    guard j < n else {
                        #expect(c[i * ldc + j].isNaN, "wrote past the columns at \(i),\(j)")
                        continue
                    }
                    let expected = bias[j] + (0..<k).reduce(Float(0)) { $0 + a[i * lda + $1] * b[j * k + $1] }
                    #expect(abs(c[i * ldc + j] - expected) <= 1e-3 * max(1, abs(expected)), "m \(m) n \(n) k \(k) at \(i),\(j)")
                }
            }
        }
    }

    @Test("Attention of one token is its value; of two equal keys, the mean of the values")
    func attention() {
        // One head of size 2: rows are query (2), key (2), value (2).
        let single: [Float] = [1, 0, 1, 0, 3, 4]
        var out = [Float](repeating: 0, count: 2)
        var scratch = [Float](repeating: 0, count: 12)
        single.withUnsafeBufferPointer { p in
            ek_attention(1, 1, 2, p.baseAddress!, p.baseAddress! + 2, p.baseAddress! + 4, 6, &out, 2, &scratch)
        }
        #expect(out == [3, 4])
        let pair: [Float] = [1, 0, 1, 1, 2, 0, 0, 1, 1, 1, 4, 6]
        var outs = [Float](repeating: 0, count: 4)
        pair.withUnsafeBufferPointer { p in
            ek_attention(2, 1, 2, p.baseAddress!, p.baseAddress! + 2, p.baseAddress! + 4, 6, &outs, 2, &scratch)
        }
        for value in zip(outs, [3, 3, 3, 3] as [Float]) { #expect(abs(value.0 - value.1) < 1e-6) }
    }

    @Test("GELU, LayerNorm and half-precision widening give the values of their formulas")
    func elementwise() {
        var values: [Float] = [-3, -1, 0, 0.5, 2]
        ek_gelu(&values, values.count)
        let expected = [-3, -1, 0, 0.5, 2].map { (x: Double) in x * 0.5 * (1 + erf(x / 2.0.squareRoot())) }
        for (value, reference) in zip(values, expected) { #expect(abs(Double(value) - reference) < 1e-6) }
        var many = (0..<4001).map { Float(-10 + Double($0) * 0.005) }
        ek_gelu(&many, many.count)
        for (index, value) in many.enumerated() {
            let x = Double(Float(-10 + Double(index) * 0.005))
            #expect(abs(Double(value) - x * 0.5 * (1 + erf(x / 2.0.squareRoot()))) < 1e-6, "x = \(x)")
        }

        var row: [Float] = [1, 2, 3, 4]
        let residual: [Float] = [1, 1, 1, 1]
        ek_add_layer_norm(1, 4, &row, residual, [1, 1, 1, 1], [0, 0, 0, 1], 0)
        let spread = Float(1.25).squareRoot()
        for (value, reference) in zip(row, [-1.5 / spread, -0.5 / spread, 0.5 / spread, 1.5 / spread + 1]) {
            #expect(abs(value - reference) < 1e-6)
        }

        let halves: [UInt16] = [0x3C00, 0xC000, 0x0001, 0x7BFF, 0x7C00, 0x0000, 0x3555]
        var singles = [Float](repeating: 0, count: halves.count)
        ek_half_to_float(halves, &singles, halves.count)
        #expect(singles[0] == 1 && singles[1] == -2 && singles[2] == 0x1p-24 && singles[3] == 65504)
        #expect(singles[4] == .infinity && singles[5] == 0 && abs(singles[6] - 0.33325195) < 1e-7)
    }
}

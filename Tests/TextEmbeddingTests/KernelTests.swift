import EmbeddingKernels
import Testing

@Suite("Embedding kernels")
struct KernelTests {
    @Test("A matrix times a transposed matrix, with a bias, equals the sums written out, for every shape of remainder")
    func matmulTransposed() {
        for (m, n, k) in [(1, 1, 1), (2, 4, 8), (3, 5, 7), (5, 9, 19), (4, 12, 384)] {
            let a = (0..<(m * k)).map { Float(($0 * 7 % 13) - 6) / 8 }
            let b = (0..<(n * k)).map { Float(($0 * 5 % 11) - 5) / 4 }
            let bias = (0..<n).map { Float($0) / 2 }
            var c = [Float](repeating: .nan, count: m * n)
            ek_matmul_transposed(Int32(m), Int32(n), Int32(k), a, b, bias, &c)
            for i in 0..<m {
                for j in 0..<n {
                    let expected = bias[j] + (0..<k).reduce(Float(0)) { $0 + a[i * k + $1] * b[j * k + $1] }
                    #expect(abs(c[i * n + j] - expected) <= 1e-3 * max(1, abs(expected)), "m \(m) n \(n) k \(k) at \(i),\(j)")
                }
            }
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

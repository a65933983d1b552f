import EmbeddingKernels
import Foundation
import SeededRandom
import Testing

@testable import SpotlightKit

/// The sign-bit pass before the int8 scan: its kernels against plain Swift, and its results
/// against the exact scan.
@Suite("Sign-bit prefilter")
struct SignBitPrefilterTests {
    /// Unit vectors around `clusters` random centres, from a fixed seed.
    static func clustered(count: Int, dimension: Int, clusters: Int, seed: UInt64) -> [[Float]] {
        var random = SeededRandomNumberGenerator(seed: seed)
        let centres = (0..<clusters).map { _ in (0..<dimension).map { _ in Float.random(in: -1...1, using: &random) } }
        return (0..<count).map { _ in
            let centre = centres[Int.random(in: 0..<clusters, using: &random)]
            let raw = centre.map { $0 + 0.6 * Float.random(in: -1...1, using: &random) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
    }

    @Test("Sign bits, Hamming distances, their histogram and the int8 row scores equal a scalar reference")
    func kernelsMatchReference() {
        var random = SeededRandomNumberGenerator(seed: 5)
        let dimension = 100
        let words = 2
        let rows = (0..<300).map { _ in (0..<dimension).map { _ in Int8.random(in: -127...127, using: &random) } }
        let query = (0..<dimension).map { _ in Int8.random(in: -127...127, using: &random) }
        func reference(_ vector: [Int8]) -> [UInt64] {
            var bits = [UInt64](repeating: 0, count: words)
            for (i, value) in vector.enumerated() where value > 0 { bits[i / 64] |= 1 << UInt64(i % 64) }
            return bits
        }
        var matrix: [UInt64] = []
        for row in rows {
            var bits = [UInt64](repeating: .max, count: words)
            ek_sign_bits(row, Int32(dimension), &bits)
            #expect(bits == reference(row))
            matrix += bits
        }
        let queryBits = reference(query)
        var distances = [UInt16](repeating: 0, count: rows.count)
        var histogram = [UInt32](repeating: 0, count: 64 * words + 1)
        ek_hamming_scan(matrix, Int32(rows.count), Int32(words), queryBits, &distances, &histogram)
        var expectedHistogram = [UInt32](repeating: 0, count: 64 * words + 1)
        for (r, row) in rows.enumerated() {
            let differing = (0..<dimension).filter { (row[$0] > 0) != (query[$0] > 0) }.count
            #expect(Int(distances[r]) == differing)
            expectedHistogram[differing] += 1
        }
        #expect(histogram == expectedHistogram)

        let cutoff = Int(distances.sorted()[40])
        let below = distances.filter { Int($0) < cutoff }.count
        var selected = [Int32](repeating: -1, count: 41)
        let written = ek_hamming_select(distances, Int32(rows.count), Int32(cutoff), Int32(41 - below), &selected)
        #expect(written == 41)
        let expectedSelection =
            distances.indices.filter { Int(distances[$0]) < cutoff }
            + distances.indices.filter { Int(distances[$0]) == cutoff }.prefix(41 - below)
        #expect(selected.map(Int.init) == expectedSelection.sorted())

        let flat = rows.flatMap { $0 }
        let scales = (0..<rows.count).map { Float($0 + 1) / 1000 }
        let positions: [Int32] = [7, 0, 299, 42]
        var scores = [Float](repeating: 0, count: positions.count)
        ek_int8_score_rows(flat, scales, Int32(dimension), positions, Int32(positions.count), query, 0.5, &scores)
        for (c, r) in positions.enumerated() {
            let sum = zip(rows[Int(r)], query).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) }
            #expect(scores[c] == scales[Int(r)] * 0.5 * Float(sum))
        }
    }

    @Test("On a seeded clustered set the sign-bit pass keeps the exact scan's ten best")
    func prefilterKeepsExactTopTen() {
        let dimension = 384
        let vectors = Self.clustered(count: 6_010, dimension: dimension, clusters: 60, seed: 17)
        var matrix = VectorMatrix(model: "m", dimension: dimension)
        for (offset, vector) in vectors.prefix(6_000).enumerated() { matrix.append(itemId: Int64(offset + 1), vector: vector) }
        let queries = vectors.suffix(10)
        for query in queries {
            let exact = matrix.candidates(for: query, limit: 10, prefilter: false)
            let filtered = matrix.candidates(for: query, limit: 10, prefilter: true, prefilterCount: 600)
            #expect(filtered.map(\.itemId) == exact.map(\.itemId))
            #expect(filtered.map(\.score) == exact.map(\.score))
        }
    }

    @Test("The sign-bit pass starts at the size threshold and keeps one row in ten")
    func thresholdSwitch() {
        // The far row's signs differ from the query's in 7 of 8 components, yet its cosine is the
        // highest (0.87 against 0.58 for the rows with the query's signs): the exact scan finds
        // it, the sign-bit pass (5,000 rows at distance 0 kept first) does not.
        func unit(_ vector: [Float]) -> [Float] {
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return vector.map { $0 / norm }
        }
        let query = unit([1] + Array(repeating: -0.1, count: 7))
        let far = unit([1] + Array(repeating: 0.1, count: 7))
        let near = unit([1] + Array(repeating: -1, count: 7))
        var matrix = VectorMatrix(model: "m", dimension: 8)
        matrix.append(itemId: -1, vector: far)
        for row in 0..<(VectorMatrix.prefilterThreshold - 2) { matrix.append(itemId: Int64(row), vector: near) }
        #expect(matrix.count == VectorMatrix.prefilterThreshold - 1)
        #expect(matrix.candidates(for: query, limit: 1).first?.itemId == -1)

        matrix.append(itemId: 1_000_000, vector: near)
        #expect(VectorMatrix.prefilterCandidateCount(rows: matrix.count) == 5_000)
        #expect(VectorMatrix.prefilterCandidateCount(rows: 1_000_000) == 100_000)
        let filtered = matrix.candidates(for: query, limit: 3)
        #expect(filtered.count == 3 && !filtered.contains { $0.itemId == -1 })
        #expect(matrix.candidates(for: query, limit: 1, prefilter: false).first?.itemId == -1)
    }
}

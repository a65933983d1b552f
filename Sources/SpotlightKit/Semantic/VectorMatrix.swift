import EmbeddingKernels
import Foundation
import GRDB
import Synchronization

/// The int8 vectors of one index and model, held in memory as one contiguous matrix.
///
/// A query scores every row with `ek_int8_scan` (split across two threads for large indexes)
/// and keeps the best candidates, which the caller re-ranks with the exact float16 copies.
/// From ``prefilterThreshold`` rows a first pass over the sign bits comes before: the rows
/// nearest the query's signs by Hamming distance (``prefilterCandidateCount(rows:)`` of them,
/// chosen by counting the distances, without sorting them) are the only ones scored in int8, so
/// a query at a million rows reads 48 MB of bits instead of 384 MB of int8 components.
package struct VectorMatrix: Sendable {
    /// The model that made the vectors.
    var model: String
    /// The index's vector generation when the matrix was read.
    var generation: Int64
    var dimension: Int
    var itemIds: [Int64]
    var scales: [Float]
    var rows: [Int8]
    /// The sign bits of each row, ``signWords`` words per row (bit set where the component is
    /// positive).
    var signs: [UInt64] = []

    package var count: Int { itemIds.count }
    var signWords: Int { (dimension + 63) / 64 }

    /// The fewest rows for which a query filters by sign bits before the int8 scan; below it the
    /// exact int8 scan takes under 2 ms.
    package static let prefilterThreshold = 50_000

    /// Whether queries pass the sign bits first from ``prefilterThreshold`` rows (on unless a
    /// benchmark compares the exact scan).
    package static let prefilterEnabled = Atomic<Bool>(true)

    /// The rows kept by the sign-bit pass and scored in int8: one in ten, at least 2,000.
    ///
    /// With all-MiniLM-L6-v2 vectors of 7,780 texts and 71 short queries, keeping one row in
    /// sixteen gave a recall@10 of 0.9915 against the exact scan (after the exact re-rank), one
    /// in ten 0.9972 (`spotlight-bench scan-model`).
    package static func prefilterCandidateCount(rows: Int) -> Int { max(2_000, rows / 10) }

    /// An empty matrix of vectors made by a model.
    package init(model: String, generation: Int64 = 0, dimension: Int) {
        self.init(model: model, generation: generation, dimension: dimension, itemIds: [], scales: [], rows: [])
    }

    init(model: String, generation: Int64, dimension: Int, itemIds: [Int64], scales: [Float], rows: [Int8]) {
        self.model = model
        self.generation = generation
        self.dimension = dimension
        self.itemIds = itemIds
        self.scales = scales
        self.rows = rows
    }

    /// Adds a unit vector as a row (quantised to int8 and to sign bits).
    package mutating func append(itemId: Int64, vector: [Float]) {
        append(itemId: itemId, vector: QuantizedVector(vector))
    }

    /// Adds a row.
    mutating func append(itemId: Int64, vector: QuantizedVector) {
        vector.quantized.withUnsafeBufferPointer { append(itemId: itemId, scale: vector.scale, quantized: $0) }
    }

    /// Adds a row of ``dimension`` int8 components.
    mutating func append(itemId: Int64, scale: Float, quantized: UnsafeBufferPointer<Int8>) {
        itemIds.append(itemId)
        scales.append(scale)
        rows.append(contentsOf: quantized)
        let start = signs.count
        signs.append(contentsOf: repeatElement(0, count: signWords))
        signs.withUnsafeMutableBufferPointer { signs in
            ek_sign_bits(quantized.baseAddress!, Int32(dimension), signs.baseAddress! + start)
        }
    }

    /// Reads the vectors of an index made by a model.
    static func read(indexId: Int64, model: String, dimension: Int, generation: Int64, in db: Database) throws -> VectorMatrix {
        var matrix = VectorMatrix(
            model: model, generation: generation, dimension: dimension, itemIds: [], scales: [], rows: [])
        let expected =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM spotlightItemEmbedding WHERE indexId = ? AND model = ?",
                arguments: [indexId, model]) ?? 0
        matrix.itemIds.reserveCapacity(expected)
        matrix.scales.reserveCapacity(expected)
        matrix.rows.reserveCapacity(expected * dimension)
        matrix.signs.reserveCapacity(expected * matrix.signWords)
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT itemId, scale, quantized FROM spotlightItemEmbedding
                WHERE indexId = ? AND model = ? AND length(quantized) = ?
                """,
            arguments: [indexId, model, dimension])
        while let row = try cursor.next() {
            let data: Data = row[2]
            data.withUnsafeBytes { matrix.append(itemId: row[0], scale: row[1], quantized: $0.bindMemory(to: Int8.self)) }
        }
        return matrix
    }

    /// The rows most similar to a query, best first, by their int8 score.
    ///
    /// - Parameters:
    ///   - query: A unit vector of ``dimension`` components.
    ///   - limit: The most candidates returned.
    ///   - prefilter: Whether to pass the sign bits first; by default from ``prefilterThreshold``
    ///     rows.
    ///   - prefilterCount: The rows the sign bits keep; by default ``prefilterCandidateCount(rows:)``.
    /// - Returns: Item identifiers with approximate cosines.
    ///
    /// ```swift
    /// var matrix = VectorMatrix(model: "m", dimension: 384)
    /// matrix.append(itemId: 1, vector: vector)
    /// let best = matrix.candidates(for: queryVector, limit: 200)
    /// ```
    package func candidates(
        for query: [Float], limit: Int, prefilter: Bool? = nil, prefilterCount: Int? = nil
    ) -> [(itemId: Int64, score: Float)] {
        guard count > 0, limit > 0, query.count == dimension else { return [] }
        let quantizedQuery = QuantizedVector(query)
        let automatic = count >= Self.prefilterThreshold && Self.prefilterEnabled.load(ordering: .relaxed)
        let filtered = (prefilter ?? automatic) && signs.count == count * signWords
        if filtered {
            let selected = nearestBySigns(
                quantizedQuery, count: prefilterCount ?? Self.prefilterCandidateCount(rows: count))
            let scores = score(rowsAt: selected, against: quantizedQuery)
            return Self.top(scores, limit: limit).map { (itemIds[Int(selected[$0.index])], $0.score) }
        }
        var scores = [Float](repeating: 0, count: count)
        let dimension = Int32(self.dimension)
        let parts = count >= 32_768 ? 2 : 1
        let rowsPerPart = (count + parts - 1) / parts
        rows.withUnsafeBufferPointer { matrix in
            scales.withUnsafeBufferPointer { scales in
                quantizedQuery.quantized.withUnsafeBufferPointer { queryRow in
                    scores.withUnsafeMutableBufferPointer { scores in
                        let matrixBase = matrix.baseAddress!
                        let scaleBase = scales.baseAddress!
                        let scoreBase = scores.baseAddress!
                        let queryBase = queryRow.baseAddress!
                        let queryScale = quantizedQuery.scale
                        let total = self.count
                        let width = self.dimension
                        nonisolated(unsafe) let addresses = (matrixBase, scaleBase, scoreBase, queryBase)
                        DispatchQueue.concurrentPerform(iterations: parts) { part in
                            let start = part * rowsPerPart
                            let end = min(total, start + rowsPerPart)
                            guard start < end else { return }
                            ek_int8_scan(
                                addresses.0 + start * width, addresses.1 + start, Int32(end - start), dimension,
                                addresses.3, queryScale, addresses.2 + start)
                        }
                    }
                }
            }
        }
        return Self.top(scores, limit: limit).map { (itemIds[$0.index], $0.score) }
    }

    /// The positions of the `count` rows whose sign bits differ least from the query's, in row
    /// order (ties at the cutoff distance by position).
    ///
    /// Two threads each compute the Hamming distances of half the rows and count them by
    /// distance; the cutoff is the distance at which the summed counts reach `count`.
    func nearestBySigns(_ query: QuantizedVector, count wanted: Int) -> [Int32] {
        let words = signWords
        let total = count
        let parts = total >= 32_768 ? 2 : 1
        let rowsPerPart = (total + parts - 1) / parts
        let bins = 64 * words + 1
        var querySigns = [UInt64](repeating: 0, count: words)
        ek_sign_bits(query.quantized, Int32(dimension), &querySigns)
        var distances = [UInt16](repeating: 0, count: total)
        var histograms = [UInt32](repeating: 0, count: bins * parts)
        signs.withUnsafeBufferPointer { signs in
            querySigns.withUnsafeBufferPointer { querySigns in
                distances.withUnsafeMutableBufferPointer { distances in
                    histograms.withUnsafeMutableBufferPointer { histograms in
                        nonisolated(unsafe) let addresses = (
                            signs.baseAddress!, querySigns.baseAddress!, distances.baseAddress!, histograms.baseAddress!
                        )
                        DispatchQueue.concurrentPerform(iterations: parts) { part in
                            let start = part * rowsPerPart
                            let end = min(total, start + rowsPerPart)
                            guard start < end else { return }
                            ek_hamming_scan(
                                addresses.0 + start * words, Int32(end - start), Int32(words), addresses.1,
                                addresses.2 + start, addresses.3 + part * bins)
                        }
                    }
                }
            }
        }
        var cutoff = 0
        var below = 0
        while cutoff < bins {
            var atCutoff = 0
            for part in 0..<parts { atCutoff += Int(histograms[part * bins + cutoff]) }
            if below + atCutoff >= wanted { break }
            below += atCutoff
            cutoff += 1
        }
        var selected = [Int32](repeating: 0, count: min(wanted, total))
        let written = distances.withUnsafeBufferPointer { distances in
            ek_hamming_select(
                distances.baseAddress!, Int32(total), Int32(cutoff), Int32(min(wanted, total) - below), &selected)
        }
        selected.removeLast(selected.count - Int(written))
        return selected
    }

    /// The int8 scores of the rows at the given positions, in their order.
    func score(rowsAt positions: [Int32], against query: QuantizedVector) -> [Float] {
        var scores = [Float](repeating: 0, count: positions.count)
        guard !positions.isEmpty else { return scores }
        let parts = positions.count >= 4_096 ? 2 : 1
        let perPart = (positions.count + parts - 1) / parts
        let total = positions.count
        rows.withUnsafeBufferPointer { matrix in
            scales.withUnsafeBufferPointer { scales in
                positions.withUnsafeBufferPointer { positions in
                    query.quantized.withUnsafeBufferPointer { queryRow in
                        scores.withUnsafeMutableBufferPointer { scores in
                            nonisolated(unsafe) let addresses = (
                                matrix.baseAddress!, scales.baseAddress!, positions.baseAddress!, queryRow.baseAddress!,
                                scores.baseAddress!
                            )
                            let dimension = Int32(self.dimension)
                            let queryScale = query.scale
                            DispatchQueue.concurrentPerform(iterations: parts) { part in
                                let start = part * perPart
                                let end = min(total, start + perPart)
                                guard start < end else { return }
                                ek_int8_score_rows(
                                    addresses.0, addresses.1, dimension, addresses.2 + start, Int32(end - start),
                                    addresses.3, queryScale, addresses.4 + start)
                            }
                        }
                    }
                }
            }
        }
        return scores
    }

    /// The positions of the largest scores, largest first; ties by position.
    static func top(_ scores: [Float], limit wanted: Int) -> [(index: Int, score: Float)] {
        // A limit beyond the scores keeps them all; bounded by them, twice it cannot overflow
        // nor reserve more than twice the scores.
        let limit = min(wanted, scores.count)
        guard limit > 0 else { return [] }
        var kept: [(index: Int, score: Float)] = []
        kept.reserveCapacity(min(limit * 2, scores.count))
        var threshold = -Float.infinity
        for (index, score) in scores.enumerated() where score > threshold {
            kept.append((index, score))
            if kept.count >= limit * 2 {
                kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
                kept.removeLast(kept.count - limit)
                threshold = kept[limit - 1].score
            }
        }
        kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        if kept.count > limit { kept.removeLast(kept.count - limit) }
        return kept
    }
}

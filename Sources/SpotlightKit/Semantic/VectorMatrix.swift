import EmbeddingKernels
import Foundation
import GRDB

/// The int8 vectors of one index and model, held in memory as one contiguous matrix.
///
/// A query scores every row with `ek_int8_scan` (split across two threads for large indexes)
/// and keeps the best candidates, which the caller re-ranks with the exact float16 copies.
struct VectorMatrix: Sendable {
    /// The model that made the vectors.
    var model: String
    /// The index's vector generation when the matrix was read.
    var generation: Int64
    var dimension: Int
    var itemIds: [Int64]
    var scales: [Float]
    var rows: [Int8]

    var count: Int { itemIds.count }

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
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT itemId, scale, quantized FROM spotlightItemEmbedding
                WHERE indexId = ? AND model = ? AND length(quantized) = ?
                """,
            arguments: [indexId, model, dimension])
        while let row = try cursor.next() {
            matrix.itemIds.append(row[0])
            matrix.scales.append(row[1])
            let data: Data = row[2]
            data.withUnsafeBytes { matrix.rows.append(contentsOf: $0.bindMemory(to: Int8.self)) }
        }
        return matrix
    }

    /// The rows most similar to a query, best first, by their int8 score.
    ///
    /// - Parameters:
    ///   - query: A unit vector of ``dimension`` components.
    ///   - limit: The most candidates returned.
    /// - Returns: Item identifiers with approximate cosines.
    func candidates(for query: [Float], limit: Int) -> [(itemId: Int64, score: Float)] {
        guard count > 0, limit > 0, query.count == dimension else { return [] }
        let quantizedQuery = QuantizedVector(query)
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

    /// The positions of the largest scores, largest first; ties by position.
    static func top(_ scores: [Float], limit: Int) -> [(index: Int, score: Float)] {
        var kept: [(index: Int, score: Float)] = []
        kept.reserveCapacity(limit * 2)
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

import Foundation

/// A unit vector stored twice: as int8 with one scale (scanned in memory) and as float16 (read
/// back to re-rank the best candidates exactly).
///
/// `value[i] ≈ scale · quantized[i]`, with `scale = max |value[i]| / 127`.
struct QuantizedVector: Sendable, Equatable {
    var scale: Float
    var quantized: [Int8]

    init(_ vector: [Float]) {
        let largest = vector.reduce(Float(0)) { max($0, abs($1)) }
        scale = largest > 0 ? largest / 127 : 0
        let inverse = largest > 0 ? 127 / largest : 0
        quantized = vector.map { Int8(max(-127, min(127, ($0 * inverse).rounded()))) }
    }

    /// The bytes stored in the `quantized` column.
    var quantizedData: Data { quantized.withUnsafeBytes { Data($0) } }

    /// The float16 bytes stored in the `exact` column.
    static func exactData(_ vector: [Float]) -> Data {
        let halves = vector.map { Float16($0) }
        return halves.withUnsafeBytes { Data($0) }
    }

    /// The vector read back from the `exact` column.
    static func exactVector(_ data: Data) -> [Float] {
        var halves = [Float16](repeating: 0, count: data.count / MemoryLayout<Float16>.size)
        _ = halves.withUnsafeMutableBytes { data.copyBytes(to: $0) }
        return halves.map { Float($0) }
    }
}

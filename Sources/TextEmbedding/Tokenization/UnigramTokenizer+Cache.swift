import Foundation

/// The binary copy of a Unigram vocabulary beside its `tokenizer.json`, so that a one-shot
/// command maps a file instead of parsing 9 MB of JSON for 250,000 pieces.
///
/// The cache holds the size and modification time of the `tokenizer.json` it was made from, the
/// file's JSON without the vocabulary (normaliser, pre-tokeniser, post-processor), then the
/// pieces' bytes, where each starts, and their scores. It is ignored (and written again) when the
/// stamp differs or it is damaged in a way a read can detect.
extension UnigramTokenizer {
    static let cacheName = "tokenizer.unigram-cache"
    private static let magic: UInt32 = 0x4347_5553  // "SUGC"
    private static let version: UInt32 = 1

    /// The cache file's URL for a `tokenizer.json`.
    static func cacheURL(beside tokenizerFile: URL) -> URL {
        tokenizerFile.deletingLastPathComponent().appendingPathComponent(cacheName)
    }

    /// Loads the tokenizer from the cache beside `tokenizerFile`, or nil when there is no current,
    /// intact cache.
    init?(cacheBeside tokenizerFile: URL) {
        guard let stamp = FileStamp(of: tokenizerFile), let file = try? MappedFile(path: Self.cacheURL(beside: tokenizerFile).path),
            file.count >= 24
        else { return nil }
        let buffer = file.bytes(at: 0, count: file.count)
        var offset = 0
        func read<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            guard offset + MemoryLayout<Value>.size <= buffer.count else { return nil }
            defer { offset += MemoryLayout<Value>.size }
            return Value(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Value.self))
        }
        func array<Value: FixedWidthInteger>(_: Value.Type, count: Int) -> [Value]? {
            guard count >= 0, offset + count * MemoryLayout<Value>.size <= buffer.count else { return nil }
            defer { offset += count * MemoryLayout<Value>.size }
            return (0..<count).map {
                Value(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + $0 * MemoryLayout<Value>.size, as: Value.self))
            }
        }
        guard read(UInt32.self) == Self.magic, read(UInt32.self) == Self.version, read(UInt64.self) == stamp.size,
            read(UInt64.self) == UInt64(bitPattern: stamp.modified), let jsonLength = read(UInt32.self),
            let jsonBytes = array(UInt8.self, count: Int(jsonLength)),
            let json = (try? JSONSerialization.jsonObject(with: Data(jsonBytes))) as? [String: Any],
            let count = read(UInt32.self).map(Int.init), let byteCount = read(UInt32.self).map(Int.init),
            let starts = array(Int32.self, count: count + 1), let bytes = array(UInt8.self, count: byteCount),
            let scoreBits = array(UInt64.self, count: count), offset == buffer.count,
            starts.first == 0, starts.last == Int32(byteCount), zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        try? self.init(json: json, pieces: PieceTable(bytes: bytes, starts: starts), scores: scoreBits.map(Double.init(bitPattern:)))
    }

    /// Writes the cache beside `tokenizerFile`, atomically; a folder that cannot be written to
    /// leaves the tokenizer working without a cache.
    func writeCache(of json: [String: Any], beside tokenizerFile: URL) {
        guard let stamp = FileStamp(of: tokenizerFile) else { return }
        var rest = json
        if var model = rest["model"] as? [String: Any] {
            model["vocab"] = nil
            rest["model"] = model
        }
        guard let restData = try? JSONSerialization.data(withJSONObject: rest) else { return }
        var data = Data()
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(Self.magic)
        append(Self.version)
        append(stamp.size)
        append(UInt64(bitPattern: stamp.modified))
        append(UInt32(restData.count))
        data.append(restData)
        append(UInt32(scores.count))
        append(UInt32(pieces.bytes.count))
        for start in pieces.starts { append(start) }
        data.append(contentsOf: pieces.bytes)
        for score in scores { append(score.bitPattern) }
        try? data.write(to: Self.cacheURL(beside: tokenizerFile), options: .atomic)
    }

}

import Foundation

/// The binary copy of a WordPiece vocabulary beside its `tokenizer.json`, so that a one-shot
/// command maps a file instead of parsing 700 kB of JSON and hashing 30,000 strings.
///
/// The cache records the size and modification time of the `tokenizer.json` it was made from and
/// is ignored (and rewritten) when they differ, or when it is damaged in any way it can detect.
extension WordPieceTokenizer {
    static let cacheName = "tokenizer.wordpiece-cache"
    private static let magic: UInt32 = 0x4350_5753  // "SWPC"
    private static let version: UInt32 = 1

    /// The cache file's URL for a `tokenizer.json`.
    static func cacheURL(beside tokenizerFile: URL) -> URL {
        tokenizerFile.deletingLastPathComponent().appendingPathComponent(cacheName)
    }

    /// Loads the tokenizer from the cache beside `tokenizerFile`, or nil when there is no current,
    /// intact cache.
    init?(cacheBeside tokenizerFile: URL) {
        guard let stamp = FileStamp(of: tokenizerFile),
            let file = try? MappedFile(path: Self.cacheURL(beside: tokenizerFile).path), file.count >= 64
        else { return nil }
        let contents = file.bytes(at: 0, count: file.count)
        guard Self.checksum(UnsafeRawBufferPointer(rebasing: contents[8...])) == contents.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        else { return nil }
        var reader = CacheReader(buffer: contents)
        guard reader.word() == Self.magic, reader.word() != nil, reader.word() == Self.version, reader.long() == stamp.size,
            reader.long() == UInt64(bitPattern: stamp.modified)
        else { return nil }
        guard let flags = reader.word() else { return nil }
        let normalization = Normalization(
            cleanText: flags & 1 != 0, handleChineseCharacters: flags & 2 != 0, stripAccents: flags & 4 != 0,
            lowercase: flags & 8 != 0)
        guard let unknown = reader.word(), let maxCharacters = reader.word(), let prefix = reader.bytes(),
            let before = reader.ids(), let after = reader.ids(), let addedCount = reader.word()
        else { return nil }
        var added: [(scalars: [Unicode.Scalar], id: Int32)] = []
        for _ in 0..<addedCount {
            guard let id = reader.word(), let content = reader.bytes(), let text = String(validating: content, as: UTF8.self),
                !text.isEmpty
            else { return nil }
            added.append((Array(text.unicodeScalars), Int32(bitPattern: id)))
        }
        guard let tableLength = reader.word(), let tableBytes = reader.slice(Int(tableLength)),
            let table = VocabularyTable(trusted: tableBytes, owner: file)
        else { return nil }
        self.init(
            vocabulary: table, normalization: normalization, unknownId: Int32(bitPattern: unknown), continuationPrefix: prefix,
            maxCharactersPerWord: Int(maxCharacters), before: before, after: after, addedTokens: added)
    }

    /// FNV-1a over bytes, to notice a damaged cache file.
    private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    /// Writes the cache beside `tokenizerFile`, atomically; a folder that cannot be written to
    /// leaves the tokenizer working without a cache.
    func writeCache(beside tokenizerFile: URL) {
        guard let stamp = FileStamp(of: tokenizerFile) else { return }
        var data = Data()
        func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func long(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func bytes(_ value: [UInt8]) {
            word(UInt32(value.count))
            data.append(contentsOf: value)
            data.append(contentsOf: [UInt8](repeating: 0, count: (4 - value.count % 4) % 4))
        }
        word(Self.magic)
        word(0)  // the checksum of everything after it, filled in below
        word(Self.version)
        long(stamp.size)
        long(UInt64(bitPattern: stamp.modified))
        let flags =
            (normalization.cleanText ? 1 : 0) | (normalization.handleChineseCharacters ? 2 : 0) | (normalization.stripAccents ? 4 : 0)
            | (normalization.lowercase ? 8 : 0)
        word(UInt32(flags))
        word(UInt32(bitPattern: unknownId))
        word(UInt32(maxCharactersPerWord))
        bytes(continuationPrefix)
        for list in [before, after] {
            word(UInt32(list.count))
            for id in list { word(UInt32(bitPattern: id)) }
        }
        word(UInt32(addedTokens.count))
        for token in addedTokens {
            word(UInt32(bitPattern: token.id))
            bytes(Array(String(String.UnicodeScalarView(token.scalars)).utf8))
        }
        word(UInt32(vocabulary.bytes.count))
        data.append(contentsOf: vocabulary.bytes)
        let sum = data.withUnsafeBytes { Self.checksum(UnsafeRawBufferPointer(rebasing: $0[8...])) }
        withUnsafeBytes(of: sum.littleEndian) { data.replaceSubrange(4..<8, with: $0) }
        try? data.write(to: Self.cacheURL(beside: tokenizerFile), options: .atomic)
    }
}

/// Reads little-endian words from a cache file, returning nil past its end.
private struct CacheReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    mutating func word() -> UInt32? {
        guard offset + 4 <= buffer.count else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func long() -> UInt64? {
        guard offset + 8 <= buffer.count else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// A length-prefixed byte string padded to four bytes.
    mutating func bytes() -> [UInt8]? {
        guard let count = word(), let slice = slice(Int(count)) else { return nil }
        offset += (4 - Int(count) % 4) % 4
        return Array(slice)
    }

    mutating func ids() -> [Int32]? {
        guard let count = word(), count < 16 else { return nil }
        var ids: [Int32] = []
        for _ in 0..<count {
            guard let id = word() else { return nil }
            ids.append(Int32(bitPattern: id))
        }
        return ids
    }

    mutating func slice(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, offset + count <= buffer.count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
    }
}

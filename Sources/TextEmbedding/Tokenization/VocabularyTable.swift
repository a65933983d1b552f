/// A read-only hash table from token bytes to token ids, laid out in one flat buffer so that it
/// can be written to a file and used again by mapping the file, without parsing or hashing.
///
/// Layout (little-endian 32-bit words): slot count (a power of two), entry count, the slots (an
/// entry's index plus one, 0 when empty), the entries (offset and length of the token's UTF-8
/// bytes in the string area, id), then the string area. Tokens are keyed by their UTF-8 bytes,
/// not by `String` equality, which would merge canonically equivalent but distinct tokens.
struct VocabularyTable: @unchecked Sendable {
    /// The table's bytes.
    let bytes: UnsafeRawBufferPointer
    /// What keeps `bytes` alive.
    private let owner: AnyObject
    private let slotMask: UInt32
    private let slots: UnsafePointer<UInt32>
    private let entries: UnsafePointer<UInt32>
    private let strings: UnsafePointer<UInt8>

    /// Builds a table from tokens and their ids.
    init(tokens: [(token: String, id: Int32)]) {
        var slotCount = 16
        while slotCount < tokens.count * 2 { slotCount *= 2 }
        var stringArea: [UInt8] = []
        var entryWords: [UInt32] = []
        var slotWords = [UInt32](repeating: 0, count: slotCount)
        for (index, (token, id)) in tokens.enumerated() {
            let utf8 = Array(token.utf8)
            var slot = Int(Self.hash(prefix: [], utf8[...]) & UInt32(slotCount - 1))
            while slotWords[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
            slotWords[slot] = UInt32(index + 1)
            entryWords += [UInt32(stringArea.count), UInt32(utf8.count), UInt32(bitPattern: id)]
            stringArea += utf8
        }
        let words = [UInt32(slotCount), UInt32(tokens.count)] + slotWords + entryWords
        let storage = OwnedBytes(count: words.count * 4 + stringArea.count)
        words.withUnsafeBytes { storage.pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        stringArea.withUnsafeBytes { area in
            if let base = area.baseAddress { (storage.pointer + words.count * 4).copyMemory(from: base, byteCount: area.count) }
        }
        self.init(trusted: UnsafeRawBufferPointer(start: storage.pointer, count: storage.count), owner: storage)!
    }

    /// Uses bytes written by another table (from a cache file); nil when they are inconsistent.
    init?(trusted bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        guard bytes.count >= 8, let base = bytes.baseAddress, Int(bitPattern: base) % 4 == 0 else { return nil }
        let words = base.assumingMemoryBound(to: UInt32.self)
        let slotCount = Int(words[0])
        let entryCount = Int(words[1])
        guard slotCount.nonzeroBitCount == 1, entryCount < slotCount, (2 + slotCount + 3 * entryCount) * 4 <= bytes.count else {
            return nil
        }
        let stringCount = bytes.count - (2 + slotCount + 3 * entryCount) * 4
        let entries = UnsafePointer(words + 2 + slotCount)
        for index in 0..<entryCount where Int(entries[3 * index]) + Int(entries[3 * index + 1]) > stringCount { return nil }
        for slot in 0..<slotCount where Int(words[2 + slot]) > entryCount { return nil }
        self.bytes = bytes
        self.owner = owner
        slotMask = UInt32(slotCount - 1)
        slots = UnsafePointer(words + 2)
        self.entries = entries
        strings = (base + (2 + slotCount + 3 * entryCount) * 4).assumingMemoryBound(to: UInt8.self)
    }

    /// FNV-1a over a prefix and bytes.
    @inline(__always)
    static func hash(prefix: [UInt8], _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in prefix { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    /// The id of the token made of `prefix` followed by `bytes`, or nil when it is not in the table.
    func id(prefix: [UInt8], _ bytes: ArraySlice<UInt8>) -> Int32? {
        var slot = Self.hash(prefix: prefix, bytes) & slotMask
        let length = prefix.count + bytes.count
        while true {
            let entryIndex = Int(slots[Int(slot)])
            if entryIndex == 0 { return nil }
            let entry = entries + 3 * (entryIndex - 1)
            if Int(entry[1]) == length {
                let stored = strings + Int(entry[0])
                var equal = true
                for (position, byte) in prefix.enumerated() where stored[position] != byte {
                    equal = false
                    break
                }
                if equal {
                    var position = prefix.count
                    for byte in bytes {
                        if stored[position] != byte {
                            equal = false
                            break
                        }
                        position += 1
                    }
                }
                if equal { return Int32(bitPattern: entry[2]) }
            }
            slot = (slot + 1) & slotMask
        }
    }
}

/// Bytes owned by the object, freed with it.
final class OwnedBytes {
    let pointer: UnsafeMutableRawPointer
    let count: Int

    init(count: Int) {
        self.count = count
        pointer = .allocate(byteCount: max(count, 1), alignment: 16)
    }

    deinit { pointer.deallocate() }
}

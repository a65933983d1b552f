/// SentencePiece's compiled normalisation rules: a double-array trie from UTF-8 sequences to
/// offsets of NUL-terminated replacements (the `precompiled_charsmap` of a `Precompiled`
/// normaliser in `tokenizer.json`).
///
/// The blob is a little-endian `UInt32` with the trie's size in bytes, the trie's units, then
/// the replacement strings. A rule rewrites the shortest matching prefix of a grapheme cluster
/// (or, for clusters of 6 bytes or more, of each scalar), as Hugging Face's tokenizers do.
///
/// ```swift
/// let map = PrecompiledCharsMap.compile([("ｱ", "ア"), ("\t", " ")])
/// map.normalize("ｱ\tb")   // "ア b"
/// ```
struct PrecompiledCharsMap: Sendable {
    private let units: [UInt32]
    private let replacements: [UInt8]

    /// Reads a compiled blob.
    ///
    /// - Parameter blob: The decoded bytes of `precompiled_charsmap`.
    /// - Returns: `nil` when the blob is shorter than its header says.
    init?(blob: [UInt8]) {
        guard blob.count >= 4 else { return nil }
        let trieBytes = Int(blob[0]) | Int(blob[1]) << 8 | Int(blob[2]) << 16 | Int(blob[3]) << 24
        guard trieBytes % 4 == 0, 4 + trieBytes <= blob.count else { return nil }
        var units = [UInt32](repeating: 0, count: trieBytes / 4)
        for index in units.indices {
            let base = 4 + index * 4
            units[index] =
                UInt32(blob[base]) | UInt32(blob[base + 1]) << 8 | UInt32(blob[base + 2]) << 16 | UInt32(blob[base + 3]) << 24
        }
        self.units = units
        self.replacements = Array(blob[(4 + trieBytes)...])
    }

    /// The compiled blob, as stored (base64) in `tokenizer.json`.
    var blob: [UInt8] {
        let size = UInt32(units.count * 4)
        var bytes: [UInt8] = [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        bytes.reserveCapacity(4 + units.count * 4 + replacements.count)
        for unit in units {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8 & 0xFF), UInt8(unit >> 16 & 0xFF), UInt8(unit >> 24)]
        }
        return bytes + replacements
    }

    /// Applies the rules to a text.
    func normalize(_ text: String) -> String {
        guard !units.isEmpty else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for character in text {
            let bytes = Array(character.utf8)
            if bytes.count < 6, let replacement = shortestMatch(bytes[...]) {
                output += replacement
                continue
            }
            for scalar in character.unicodeScalars {
                let scalarBytes = Array(String(scalar).utf8)
                output += shortestMatch(scalarBytes[...]) ?? scalarBytes[...]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The replacement of the shortest rule that matches a prefix of the bytes.
    private func shortestMatch(_ key: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var position = 0
        position ^= Self.offset(units[0])
        for byte in key {
            guard byte != 0 else { return nil }
            position ^= Int(byte)
            guard position < units.count else { return nil }
            let unit = units[position]
            guard unit & 0x8000_00FF == UInt32(byte) else { return nil }
            position ^= Self.offset(unit)
            if unit >> 8 & 1 == 1 {
                guard position < units.count else { return nil }
                let start = Int(units[position] & 0x7FFF_FFFF)
                guard start < replacements.count else { return nil }
                let end = replacements[start...].firstIndex(of: 0) ?? replacements.endIndex
                return replacements[start..<end]
            }
        }
        return nil
    }

    private static func offset(_ unit: UInt32) -> Int {
        Int((unit >> 10) << ((unit & (1 << 9)) >> 6))
    }
}

extension PrecompiledCharsMap {
    /// Compiles rules into a double-array trie.
    ///
    /// Each node's children are placed at `base ^ label` for the first free `base` no other node
    /// uses; a node with a rule keeps the rule's replacement offset in a leaf unit at `base ^ 0`.
    ///
    /// Rules are kept by their UTF-8 bytes, not as `String` keys, since Swift's `String` equality
    /// would merge canonically equivalent sources such as U+212B ANGSTROM SIGN and U+00C5.
    ///
    /// - Parameter rules: Source sequences and their replacements; empty sources are ignored, and
    ///   of two rules with the same source bytes the first is kept.
    /// - Returns: The compiled map.
    static func compile(_ rules: [(source: String, replacement: String)]) -> PrecompiledCharsMap {
        var replacements: [UInt8] = []
        var offsetOfReplacement: [[UInt8]: UInt32] = [:]
        var trie = ByteTrie()
        var seen: Set<[UInt8]> = []
        let encoded = rules.map { (source: Array($0.source.utf8), replacement: Array($0.replacement.utf8)) }
        for (source, replacement) in encoded.sorted(by: { $0.source.lexicographicallyPrecedes($1.source) }) {
            guard !source.isEmpty, seen.insert(source).inserted else { continue }
            let offset: UInt32
            if let known = offsetOfReplacement[replacement] {
                offset = known
            } else {
                offset = UInt32(replacements.count)
                replacements += replacement + [0]
                offsetOfReplacement[replacement] = offset
            }
            trie.insert(source, value: offset)
        }
        return PrecompiledCharsMap(units: trie.doubleArray(), replacements: replacements)
    }

    private init(units: [UInt32], replacements: [UInt8]) {
        self.units = units
        self.replacements = replacements
    }
}

/// A plain byte trie, turned into darts-clone's double-array layout.
private struct ByteTrie {
    private var children: [[UInt8: Int]] = [[:]]
    private var values: [UInt32?] = [nil]

    mutating func insert(_ key: [UInt8], value: UInt32) {
        var node = 0
        for byte in key {
            if let next = children[node][byte] {
                node = next
            } else {
                children.append([:])
                values.append(nil)
                children[node][byte] = children.count - 1
                node = children.count - 1
            }
        }
        values[node] = value
    }

    func doubleArray() -> [UInt32] {
        var units: [UInt32] = [0]
        var used: [Bool] = [true]
        var firstFree = 1
        var usedBases: Set<Int> = []
        var queue: [(node: Int, position: Int)] = [(0, 0)]
        var head = 0
        while head < queue.count {
            let (node, position) = queue[head]
            head += 1
            let labels = (values[node] == nil ? [] : [UInt8(0)]) + children[node].keys.sorted()
            guard !labels.isEmpty else { continue }
            while firstFree < used.count, used[firstFree] { firstFree += 1 }
            var base = max(firstFree & ~255, 1)
            while true {
                if base + 256 > units.count {
                    units += [UInt32](repeating: 0, count: 256)
                    used += [Bool](repeating: false, count: 256)
                }
                if !usedBases.contains(base), labels.allSatisfy({ !used[base ^ Int($0)] && base ^ Int($0) != 0 }) { break }
                base += 1
            }
            usedBases.insert(base)  // a slot's label then identifies its parent, which is all a lookup checks
            let offset = position ^ base
            precondition(offset < 1 << 21, "the trie outgrew the direct offset range")
            units[position] |= UInt32(offset) << 10
            if values[node] != nil {
                units[position] |= 1 << 8
                units[base] = 0x8000_0000 | values[node]!
                used[base] = true
            }
            for (label, child) in children[node].sorted(by: { $0.key < $1.key }) {
                let slot = base ^ Int(label)
                used[slot] = true
                units[slot] = UInt32(label)
                queue.append((child, slot))
            }
        }
        return units  // whole blocks of 256, so that every XOR of a position with a byte stays inside
    }
}

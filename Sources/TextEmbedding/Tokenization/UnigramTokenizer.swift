import Foundation

/// A SentencePiece Unigram tokenizer read from a Hugging Face `tokenizer.json`, as used by
/// multilingual-e5 and other XLM-R models.
///
/// Encoding follows Hugging Face's pipeline: the normaliser (XLM-R's `Precompiled` rules, then
/// runs of spaces collapsed), the `Metaspace` pre-tokeniser (spaces become `▁`, a `▁` is
/// prepended, and the text is split before each `▁`), the most probable segmentation of each
/// word by the pieces' log-probabilities (Viterbi; a character no piece covers becomes the
/// unknown piece, and consecutive unknown pieces are fused into one), then the post-processor's
/// special pieces (`<s> … </s>`).
///
/// ```swift
/// let tokenizer = try UnigramTokenizer(contentsOf: folder.appendingPathComponent("tokenizer.json"))
/// tokenizer.encode("query: 嵐山の紅葉", maxTokens: 256)   // [0, …, 2]
/// ```
///
/// Special tokens of the file's `added_tokens` written in the text (such as a literal `<mask>`)
/// are matched first and become their ids, as in Hugging Face's tokenizers.
public struct UnigramTokenizer: Sendable {
    let normalizer: TextNormalizer?
    let metaspace: Metaspace
    let pieces: PieceTable
    let scores: [Double]
    let unknownID: Int32
    let unknownScore: Double
    /// The file's special added tokens, longest first, matched in text before normalisation.
    let specialPieces: [SpecialPiece]
    let leadingIDs: [Int32]
    let trailingIDs: [Int32]

    /// The number of pieces in the vocabulary.
    public var vocabularySize: Int { scores.count }

    /// How spaces become the `▁` marker and split words.
    struct Metaspace: Sendable {
        var replacement: String = "\u{2581}"
        var prependsMarker = true
        /// `prepend_scheme: first`: only the text before the first special piece gets a marker.
        var prependsToFirstOnly = false
        var splits = true
    }

    /// Encodes a text into piece ids, with the special pieces around them.
    ///
    /// - Parameters:
    ///   - text: The text; pieces past the limit are dropped from the end.
    ///   - maxTokens: The most ids returned, special pieces included.
    /// - Returns: The ids, such as `[0, 35378, 6, 2]` for `<s> ▁hello </s>`-like input.
    public func encode(_ text: String, maxTokens: Int) -> [Int32] {
        let contentLimit = max(0, maxTokens - leadingIDs.count - trailingIDs.count)
        return leadingIDs + contentIDs(text, limit: contentLimit) + trailingIDs
    }

    /// The piece ids of a text, without special pieces, at most `limit` of them.
    ///
    /// A long text is not normalised whole: growing prefixes of it are, cut before a space where
    /// there is one, until one gives `limit` pieces and a few more, so that a megabyte costs what
    /// its first few thousand characters cost. The pieces past the limit are the only ones a cut
    /// can change.
    func contentIDs(_ text: String, limit: Int = .max) -> [Int32] {
        let margin = 16
        var length = max(1024, limit.multipliedReportingOverflow(by: 8).overflow ? .max : limit * 8)
        while limit < .max / 2,
            let cut = text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex), cut < text.endIndex
        {
            var end = cut
            var steps = 0
            while end > text.startIndex, text[text.index(before: end)] != " ", steps < 256 {
                end = text.index(before: end)
                steps += 1
            }
            if end == text.startIndex || steps == 256 { end = cut } else { end = text.index(before: end) }
            let ids = allContentIDs(String(text[..<end]), limit: limit + margin)
            if ids.count >= limit + margin { return Array(ids.prefix(limit)) }
            length *= 4
        }
        return Array(allContentIDs(text, limit: limit).prefix(limit))
    }

    private func allContentIDs(_ text: String, limit: Int) -> [Int32] {
        var ids: [Int32] = []
        for (index, part) in split(text).enumerated() {
            if ids.count >= limit { break }
            switch part {
            case .special(let id): ids.append(id)
            case .text(let segment): ids += textIDs(String(segment), isFirst: index == 0, limit: limit - ids.count)
            }
        }
        return ids
    }

    /// The ids of text holding no special piece.
    private func textIDs(_ text: String, isFirst: Bool, limit: Int) -> [Int32] {
        let normalized = normalizer?.apply(text) ?? text
        var marked = normalized.replacingOccurrences(of: " ", with: metaspace.replacement, options: .literal)
        if metaspace.prependsMarker, isFirst || !metaspace.prependsToFirstOnly, !marked.isEmpty,
            !marked.hasPrefix(metaspace.replacement)
        {
            marked = metaspace.replacement + marked
        }
        var ids: [Int32] = []
        for word in words(of: marked) {
            if ids.count >= limit { break }
            segment(Array(word.utf8), into: &ids)
        }
        return ids
    }

    /// A run of text, or a special piece written literally in it.
    private enum Part {
        case text(Substring.UnicodeScalarView)
        case special(Int32)
    }

    /// Splits a text at the special pieces written in it (such as `<s>` or `<mask>`), which are
    /// matched before normalisation, the longest first, taking the spaces beside them as their
    /// `lstrip` and `rstrip` say.
    private func split(_ text: String) -> [Part] {
        guard !specialPieces.isEmpty else { return [.text(Substring(text).unicodeScalars)] }
        let scalars = Substring(text).unicodeScalars
        var parts: [Part] = []
        var segmentStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard let match = specialPieces.first(where: { scalars[index...].starts(with: $0.scalars) }) else {
                index = scalars.index(after: index)
                continue
            }
            var before = index
            if match.stripsLeft {
                while before > segmentStart, scalars[scalars.index(before: before)].properties.isWhitespace {
                    before = scalars.index(before: before)
                }
            }
            var after = scalars.index(index, offsetBy: match.scalars.count)
            if match.stripsRight {
                while after < scalars.endIndex, scalars[after].properties.isWhitespace { after = scalars.index(after: after) }
            }
            if segmentStart < before { parts.append(.text(scalars[segmentStart..<before])) }
            parts.append(.special(match.id))
            segmentStart = after
            index = after
        }
        if segmentStart < scalars.endIndex { parts.append(.text(scalars[segmentStart...])) }
        return parts
    }

    /// Splits a marked text before each marker, the marker staying with the word it starts.
    private func words(of marked: String) -> [Substring] {
        guard metaspace.splits, let marker = metaspace.replacement.unicodeScalars.first else { return [marked[...]] }
        var words: [Substring] = []
        var start = marked.unicodeScalars.startIndex
        var index = start
        let scalars = marked.unicodeScalars
        while index < scalars.endIndex {
            if scalars[index] == marker, index != start {
                words.append(Substring(scalars[start..<index]))
                start = index
            }
            index = scalars.index(after: index)
        }
        if start < scalars.endIndex { words.append(Substring(scalars[start...])) }
        return words
    }

    /// Appends the best segmentation of one word.
    private func segment(_ bytes: [UInt8], into ids: inout [Int32]) {
        guard !bytes.isEmpty else { return }
        var boundaries: [Int] = []
        boundaries.reserveCapacity(bytes.count + 1)
        for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { boundaries.append(offset) }
        boundaries.append(bytes.count)
        let count = boundaries.count - 1
        var bestScore = [Double](repeating: -.infinity, count: count + 1)
        var bestPiece = [Int32](repeating: -1, count: count + 1)
        var bestStart = [Int](repeating: -1, count: count + 1)
        bestScore[0] = 0
        bytes.withUnsafeBufferPointer { buffer in
            for start in 0..<count where bestScore[start] > -.infinity {
                let here = bestScore[start]
                var coversOneCharacter = false
                var end = start + 1
                while end <= count, boundaries[end] - boundaries[start] <= pieces.longestPieceBytes {
                    if let id = pieces.index(of: buffer, from: boundaries[start], to: boundaries[end]) {
                        let candidate = here + scores[id]
                        if bestStart[end] < 0 || candidate > bestScore[end] {
                            bestScore[end] = candidate
                            bestPiece[end] = Int32(id)
                            bestStart[end] = start
                        }
                        if end == start + 1 { coversOneCharacter = true }
                    }
                    end += 1
                }
                if !coversOneCharacter {
                    let candidate = here + unknownScore
                    if bestStart[start + 1] < 0 || candidate > bestScore[start + 1] {
                        bestScore[start + 1] = candidate
                        bestPiece[start + 1] = unknownID
                        bestStart[start + 1] = start
                    }
                }
            }
        }
        var reversed: [Int32] = []
        var position = count
        while position > 0 {
            let piece = bestPiece[position]
            if !(piece == unknownID && reversed.last == unknownID) { reversed.append(piece) }
            position = bestStart[position]
        }
        ids += reversed.reversed()
    }
}

/// A special added token: its text, its id, and whether it takes the spaces before and after it.
struct SpecialPiece: Sendable {
    let scalars: [Unicode.Scalar]
    let id: Int32
    let stripsLeft: Bool
    let stripsRight: Bool
}

/// The vocabulary's pieces as UTF-8 bytes, found by hashing the bytes of a span of text.
struct PieceTable: Sendable {
    private let slots: [Int32]
    let longestPieceBytes: Int

    /// The pieces' UTF-8 bytes, one after another, and where each starts (with the end last).
    let bytes: [UInt8]
    let starts: [Int32]

    init(pieces: [String]) {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        for piece in pieces {
            bytes += piece.utf8
            starts.append(Int32(bytes.count))
        }
        self.init(bytes: bytes, starts: starts)
    }

    init(bytes: [UInt8], starts: [Int32]) {
        let count = starts.count - 1
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var longest = 0
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<count {
                let start = Int(starts[index])
                let end = Int(starts[index + 1])
                longest = max(longest, end - start)
                guard end > start else { continue }
                var slot = Self.hash(buffer, start, end) & (capacity - 1)
                while slots[slot] >= 0 {
                    let other = Int(slots[slot])
                    if Int(starts[other + 1]) - Int(starts[other]) == end - start,
                        (0..<(end - start)).allSatisfy({ buffer[Int(starts[other]) + $0] == buffer[start + $0] })
                    {
                        break  // a repeated piece keeps its first id
                    }
                    slot = (slot + 1) & (capacity - 1)
                }
                if slots[slot] < 0 { slots[slot] = Int32(index) }
            }
        }
        self.bytes = bytes
        self.starts = starts
        self.slots = slots
        self.longestPieceBytes = longest
    }

    /// The id of the piece spelled by `text[start..<end]`.
    func index(of text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var slot = Self.hash(text, start, end) & (slots.count - 1)
        let length = end - start
        while true {
            let candidate = Int(slots[slot])
            if candidate < 0 { return nil }
            let pieceStart = Int(starts[candidate])
            if Int(starts[candidate + 1]) - pieceStart == length {
                var equal = true
                for offset in 0..<length where bytes[pieceStart + offset] != text[start + offset] {
                    equal = false
                    break
                }
                if equal { return candidate }
            }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    private static func hash(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in start..<end {
            hash = (hash ^ UInt64(buffer[index])) &* 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}

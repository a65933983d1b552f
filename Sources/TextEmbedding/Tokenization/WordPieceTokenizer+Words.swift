import Foundation

extension WordPieceTokenizer {
    /// Normalises a run of text without whitespace, splits it into words, and appends each word's
    /// pieces until `ids` holds `limit` ids.
    func appendWords(of chunk: [Unicode.Scalar], to ids: inout [Int32], limit: Int) {
        guard !chunk.isEmpty, ids.count < limit else { return }
        var piece: [Unicode.Scalar] = []
        for scalar in chunk {
            let value = scalar.value
            if normalization.cleanText && (value == 0 || value == 0xFFFD || Self.isControl(scalar)) { continue }
            if normalization.handleChineseCharacters && Self.isChineseCharacter(value) {
                appendNormalizedWords(of: piece, to: &ids, limit: limit)
                piece.removeAll(keepingCapacity: true)
                appendNormalizedWords(of: [scalar], to: &ids, limit: limit)
                continue
            }
            piece.append(scalar)
        }
        appendNormalizedWords(of: piece, to: &ids, limit: limit)
    }

    /// Strips accents and lowercases as configured, then splits at whitespace and punctuation.
    private func appendNormalizedWords(of piece: [Unicode.Scalar], to ids: inout [Int32], limit: Int) {
        guard !piece.isEmpty, ids.count < limit else { return }
        var normalized: [Unicode.Scalar] = []
        normalized.reserveCapacity(piece.count)
        if piece.allSatisfy(\.isASCII) {
            for scalar in piece {
                let value = scalar.value
                normalized.append(normalization.lowercase && value >= 65 && value <= 90 ? Unicode.Scalar(value + 32)! : scalar)
            }
        } else {
            var text = String(String.UnicodeScalarView(piece))
            if normalization.stripAccents { text = text.decomposedStringWithCanonicalMapping }
            for scalar in text.unicodeScalars {
                if normalization.stripAccents && scalar.properties.generalCategory == .nonspacingMark { continue }
                if normalization.lowercase {
                    normalized += scalar.properties.lowercaseMapping.unicodeScalars
                } else {
                    normalized.append(scalar)
                }
            }
        }
        var word: [Unicode.Scalar] = []
        for scalar in normalized {
            if scalar.properties.isWhitespace {
                appendPieces(of: word, to: &ids)
                word.removeAll(keepingCapacity: true)
            } else if Self.isPunctuation(scalar) {
                appendPieces(of: word, to: &ids)
                word.removeAll(keepingCapacity: true)
                appendPieces(of: [scalar], to: &ids)
            } else {
                word.append(scalar)
            }
            if ids.count >= limit { return }
        }
        appendPieces(of: word, to: &ids)
    }

    /// A word's longest vocabulary pieces from the left, or the unknown token.
    private func appendPieces(of word: [Unicode.Scalar], to ids: inout [Int32]) {
        guard !word.isEmpty else { return }
        guard word.count <= maxCharactersPerWord else {
            ids.append(unknownId)
            return
        }
        var bytes: [UInt8] = []
        var boundaries: [Int] = [0]
        for scalar in word {
            bytes += String(scalar).utf8
            boundaries.append(bytes.count)
        }
        var pieces: [Int32] = []
        var start = 0
        while start < word.count {
            var end = word.count
            var found: Int32?
            while end > start {
                let slice = bytes[boundaries[start]..<boundaries[end]]
                if let id = vocabulary.id(prefix: start == 0 ? [] : continuationPrefix, slice) {
                    found = id
                    break
                }
                end -= 1
            }
            guard let found else {
                ids.append(unknownId)
                return
            }
            pieces.append(found)
            start = end
        }
        ids += pieces
    }

    /// Control and other invisible characters that `BertNormalizer` drops (categories Cc, Cf,
    /// Cn, Co and Cs, except tab, line feed and carriage return, which count as whitespace).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 9, 10, 13: return false
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .unassigned, .privateUse, .surrogate: return true
            default: return false
            }
        }
    }

    /// The CJK ideograph blocks that `BertNormalizer` puts spaces around.
    static func isChineseCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F, 0x2B920...0x2CEAF,
            0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default: return false
        }
    }

    /// ASCII punctuation and symbols, and every Unicode punctuation category: where
    /// `BertPreTokenizer` splits.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 {
            return (33...47).contains(value) || (58...64).contains(value) || (91...96).contains(value) || (123...126).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }
}

import Foundation

/// Splits Chinese, Japanese and Korean text, which has no spaces between words, into the
/// pieces the full-text index and suggestions work with.
///
/// FTS5's `unicode61` tokenizer reads a run of CJK characters as one token, so
/// `朝早く嵐山へ` is a single "word" and 嵐山 inside it cannot be found. The segmenter
/// turns each run into overlapping character pairs (bigrams) for a second full-text table
/// (``CJKBigramIndex``): any word of two or more characters is a phrase of consecutive
/// pairs, and a single character is the start of a pair (the last character of a run is
/// kept alone, so every character starts a token).
///
/// ```swift
/// CJKSegmenter.bigramDocument("嵐山の紅葉")       // "嵐山 山の の紅 紅葉 葉"
/// CJKSegmenter.searchedSegments(of: "京都の紅葉") // ["京都", "紅葉"]
/// ```
enum CJKSegmenter {
    /// The writing systems told apart inside a run.
    enum Script: Equatable {
        case han, hiragana, katakana, hangul
    }

    /// The script of a CJK letter, or `nil` for any other character.
    static func script(of scalar: Unicode.Scalar) -> Script? {
        let value = scalar.value
        guard value >= 0x1100 else { return nil }
        switch value {
        case 0x3005, 0x3006, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
            return .han
        case 0x3041...0x3096, 0x309D...0x309F:
            return .hiragana
        case 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F:
            return .katakana
        case 0x1100...0x11FF, 0x3131...0x318E, 0xAC00...0xD7A3:
            return .hangul
        default:
            return nil
        }
    }

    /// Whether the text holds a CJK letter; text without a UTF-8 lead byte of U+1100 or above
    /// (English, accented Latin) is told apart from its bytes alone.
    static func mayContainCJK(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0xE1 }) else { return false }
        return text.unicodeScalars.contains { $0.value >= 0x1100 && script(of: $0) != nil }
    }

    /// Whether a scalar is a combining (semi-)voiced sound mark, which belongs to the kana before it.
    static func isKanaMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x3099...0x309C).contains(scalar.value)
    }

    /// The maximal runs of CJK letters of a text, after NFKC (half-width katakana becomes full
    /// width, a kana and its voiced sound mark one letter: ﾄﾞ is ド).
    static func runs(in text: String) -> [String] {
        guard mayContainCJK(text) else { return [] }
        var runs: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            guard !current.isEmpty else { return }
            runs.append(String(current).precomposedStringWithCanonicalMapping)
            current = String.UnicodeScalarView()
        }
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if script(of: scalar) != nil || (!current.isEmpty && isKanaMark(scalar)) {
                current.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return runs
    }

    /// The text with its CJK runs replaced by spaces: what the word index still reads.
    static func nonCJKText(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            result.append(script(of: scalar) == nil && !isKanaMark(scalar) ? scalar : " ")
        }
        return String(result)
    }

    /// The tokens of one run: each pair of neighbouring characters, then the last character alone.
    static func bigrams(of run: String) -> [String] {
        let characters = Array(run.unicodeScalars)
        guard characters.count > 1 else { return characters.map { String($0) } }
        var tokens: [String] = []
        tokens.reserveCapacity(characters.count)
        for position in 0..<(characters.count - 1) {
            var pair = String.UnicodeScalarView()
            pair.append(characters[position])
            pair.append(characters[position + 1])
            tokens.append(String(pair))
        }
        tokens.append(String(characters[characters.count - 1]))
        return tokens
    }

    /// The bigram tokens of every CJK run of a text, separated by spaces, or `nil` when it has none.
    static func bigramDocument(_ text: String?) -> String? {
        guard let text else { return nil }
        let runs = runs(in: text)
        guard !runs.isEmpty else { return nil }
        return runs.map { bigrams(of: $0).joined(separator: " ") }.joined(separator: " ")
    }

    /// A run split where the script changes (a long-vowel mark `ー` continues the script before it).
    ///
    /// Kanji and katakana segments are close to content words (京都, 紅葉, ウィンドサーフィン);
    /// hiragana segments are mostly particles and endings (の, から, だった).
    static func scriptSegments(of run: String) -> [(text: String, script: Script)] {
        var segments: [(text: String, script: Script)] = []
        var current = String.UnicodeScalarView()
        var currentScript: Script?
        for scalar in run.unicodeScalars {
            guard var script = script(of: scalar) else { continue }
            if scalar.value == 0x30FC, let previous = currentScript { script = previous }
            if let currentScript, currentScript != script {
                segments.append((String(current), currentScript))
                current = String.UnicodeScalarView()
            }
            current.append(scalar)
            currentScript = script
        }
        if let currentScript, !current.isEmpty { segments.append((String(current), currentScript)) }
        return segments
    }

    /// A run cut at its hiragana segments: the pieces between particles and endings.
    ///
    /// `渡月橋から見る紅葉が見事だった` gives 渡月橋, 見, 紅葉, 見事; `江ノ島` stays whole.
    static func contentChunks(of run: String) -> [String] {
        var chunks: [String] = []
        var current = ""
        for segment in scriptSegments(of: run) {
            if segment.script == .hiragana {
                if !current.isEmpty { chunks.append(current) }
                current = ""
            } else {
                current += segment.text
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    /// The parts of a typed CJK run that must all be found: its pieces between hiragana
    /// (``contentChunks(of:)``), or the whole run when it is only hiragana.
    ///
    /// `京都の紅葉` searches 京都 and 紅葉 (wherever they are), `かった` searches かった.
    static func searchedSegments(of run: String) -> [String] {
        let chunks = contentChunks(of: run)
        return chunks.isEmpty ? [run] : chunks
    }

    /// The words a text offers as suggestions: pieces between hiragana of two or more characters.
    static func suggestionWords(in text: String) -> [String] {
        runs(in: text).flatMap { run in contentChunks(of: run).filter { $0.unicodeScalars.count >= 2 } }
    }
}

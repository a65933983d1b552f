import Foundation

/// The `normalizer` of a Hugging Face `tokenizer.json`, for the kinds SentencePiece models use.
///
/// `Precompiled` applies SentencePiece's compiled rules exactly (XLM-R's are NFKC with control
/// characters removed and spaces unified); `NFKC`, `NFC`, `NFKD`, `NFD`, `Lowercase`, `Strip`,
/// `Prepend` and `Replace` (a literal or a regular expression) are applied as Hugging Face does.
///
/// ```swift
/// let normalizer = try TextNormalizer(json: ["type": "NFKC"])
/// normalizer.apply("ｶﾀｶﾅ")   // "カタカナ"
/// ```
indirect enum TextNormalizer: Sendable {
    case sequence([TextNormalizer])
    case precompiled(PrecompiledCharsMap)
    case nfkc, nfc, nfkd, nfd, lowercase
    case strip(left: Bool, right: Bool)
    case prepend(String)
    case replaceLiteral(String, with: String)
    case replacePattern(RegularExpression, with: String)

    /// A compiled regular expression that can be shared between tasks.
    struct RegularExpression: @unchecked Sendable {
        let expression: NSRegularExpression
    }

    /// Reads a `normalizer` object.
    ///
    /// - Throws: A description of the unsupported or malformed part.
    init(json: [String: Any]) throws {
        let type = json["type"] as? String ?? ""
        switch type {
        case "Sequence":
            let steps = json["normalizers"] as? [[String: Any]] ?? []
            self = .sequence(try steps.map(TextNormalizer.init(json:)))
        case "Precompiled":
            guard let encoded = json["precompiled_charsmap"] as? String else {
                self = .sequence([])
                return
            }
            guard let data = Data(base64Encoded: encoded), let map = PrecompiledCharsMap(blob: Array(data)) else {
                throw TokenizerFileProblem("the Precompiled normalizer's precompiled_charsmap is not a valid compiled map")
            }
            self = .precompiled(map)
        case "NFKC": self = .nfkc
        case "NFC": self = .nfc
        case "NFKD": self = .nfkd
        case "NFD": self = .nfd
        case "Lowercase": self = .lowercase
        case "Strip":
            self = .strip(left: json["strip_left"] as? Bool ?? true, right: json["strip_right"] as? Bool ?? true)
        case "Prepend":
            self = .prepend(json["prepend"] as? String ?? "")
        case "Replace":
            let content = json["content"] as? String ?? ""
            let pattern = json["pattern"] as? [String: Any] ?? [:]
            if let literal = pattern["String"] as? String {
                self = .replaceLiteral(literal, with: content)
            } else if let regex = pattern["Regex"] as? String {
                do {
                    self = .replacePattern(RegularExpression(expression: try NSRegularExpression(pattern: regex)), with: content)
                } catch {
                    throw TokenizerFileProblem("the Replace normalizer's pattern '\(regex)' is not a regular expression")
                }
            } else {
                throw TokenizerFileProblem("a Replace normalizer has neither a String nor a Regex pattern")
            }
        default:
            throw TokenizerFileProblem("the normalizer type '\(type)' is not supported by this tokenizer")
        }
    }

    /// Normalises a text.
    func apply(_ text: String) -> String {
        switch self {
        case .sequence(let steps): return steps.reduce(text) { $1.apply($0) }
        case .precompiled(let map): return map.normalize(text)
        case .nfkc: return text.precomposedStringWithCompatibilityMapping
        case .nfc: return text.precomposedStringWithCanonicalMapping
        case .nfkd: return text.decomposedStringWithCompatibilityMapping
        case .nfd: return text.decomposedStringWithCanonicalMapping
        case .lowercase: return text.lowercased()
        case .strip(let left, let right):
            var scalars = Substring.UnicodeScalarView(text.unicodeScalars)
            while left, let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
            while right, let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
            return String(scalars)
        case .prepend(let prefix): return text.isEmpty ? text : prefix + text
        case .replaceLiteral(let literal, let content):
            return literal.isEmpty ? text : text.replacingOccurrences(of: literal, with: content, options: .literal)
        case .replacePattern(let regex, let content):
            let range = NSRange(text.startIndex..., in: text)
            return regex.expression.stringByReplacingMatches(
                in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: content))
        }
    }
}

/// What is wrong with a `tokenizer.json`, said in a sentence.
struct TokenizerFileProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

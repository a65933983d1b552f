import Foundation
import IntentKit

/// Hides secret values in what is written: every occurrence of a value becomes `***`.
///
/// One mask is applied at the few places that write: the text a run shows, its output, the
/// trace it returns and records in the history, its error, the daemon's log records and
/// `runs show`. It applies to text, and recursively to ``IntentValue``s (strings, URLs, file
/// paths, list elements, dictionary keys and values, enum cases, entities' ids, titles and
/// properties) and to every text field of a ``StepTrace``.
///
/// A value of ``shortestMaskedInside`` characters or more is masked wherever it appears; a
/// shorter value only where it is the whole text, since hiding every `a` or `42` inside
/// longer text would make the output unreadable while telling little. Values are masked
/// longest first, so a secret that contains another is hidden whole.
///
/// Every form a value takes in what the engine writes is masked too:
/// - **encoded**: its JSON-escaped form (quotes, backslashes, line breaks) and its
///   percent-encoded forms (as a URL's query, path or form field writes it, upper- or
///   lower-case hexadecimal);
/// - **lines**: each line of a value of several lines (a key file), where an error quotes
///   the last lines a program wrote;
/// - **parts**: any run of ``shortestMaskedPart`` bytes or more of a value or of one of its
///   forms, where a message quotes the beginning or a piece of it (a parser's "found
///   'MIIEvQIBADAN…'"). A run is masked whole, widened to the characters it touches.
///
/// ```swift
/// let mask = SecretMask(values: ["s3cr3t-value"])
/// mask.mask("Authorization: Bearer s3cr3t-value")            // Authorization: Bearer ***
/// mask.mask(IntentValue.list([.string("s3cr3t-value")]))     // ["***"]
/// ```
public struct SecretMask: Sendable, Hashable {
    /// What a value is replaced with.
    public static let replacement = "***"
    /// The shortest value (in characters) masked inside longer text.
    public static let shortestMaskedInside = 4
    /// The shortest piece of a value (in UTF-8 bytes) masked where it appears alone.
    public static let shortestMaskedPart = 12

    /// The values masked inside text, as UTF-8, longest first.
    private let inside: [[UInt8]]
    /// The values masked only as a whole text.
    private let whole: Set<String>
    /// Every run of ``shortestMaskedPart`` bytes of the values and their forms, by hash.
    private let parts: [UInt64: [UInt8]]

    /// A mask of these values; empty values are ignored.
    ///
    /// - Parameter values: The secret values.
    public init(values: some Sequence<String>) {
        var inside: Set<[UInt8]> = []
        var whole: Set<String> = []
        var parts: [UInt64: [UInt8]] = [:]
        for value in values where !value.isEmpty {
            whole.insert(value)
            guard value.count >= Self.shortestMaskedInside else { continue }
            for form in Self.forms(of: value) {
                let bytes = Array(form.utf8)
                inside.insert(bytes)
                Self.eachPart(of: bytes) { hash, part in parts[hash] = Array(part) }
            }
            for line in value.split(whereSeparator: \.isNewline) where line != Substring(value) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.count >= Self.shortestMaskedInside { inside.insert(Array(trimmed.utf8)) }
            }
        }
        self.inside = inside.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        self.whole = whole
        self.parts = parts
    }

    /// A value as it is written, JSON-escaped and percent-encoded, without repeats.
    static func forms(of value: String) -> [String] {
        var forms = [value, jsonEscaped(value)]
        let strict = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{0}"..."\u{7F}"))
            .union(CharacterSet(charactersIn: "-._~"))
        for allowed in [CharacterSet.urlQueryAllowed, .urlPathAllowed, strict] {
            guard let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) else { continue }
            forms.append(encoded)
            forms.append(encoded.replacingOccurrences(of: "%20", with: "+"))
            forms.append(lowercasedEscapes(encoded))
        }
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// `%2F` → `%2f`, for encoders that write lower-case hexadecimal.
    private static func lowercasedEscapes(_ encoded: String) -> String {
        var result = ""
        var remaining = 0
        for character in encoded {
            if character == "%" {
                remaining = 2
                result.append(character)
            } else if remaining > 0 {
                remaining -= 1
                result.append(Character(character.lowercased()))
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A mask that hides nothing.
    public static let none = SecretMask(values: [])

    /// Whether the mask hides nothing.
    public var isEmpty: Bool { whole.isEmpty }

    // MARK: Text

    /// Text with every secret value replaced by `***`.
    ///
    /// ```swift
    /// SecretMask(values: ["hunter22"]).mask("password=hunter22")   // password=***
    /// ```
    public func mask(_ text: String) -> String {
        guard !isEmpty, !text.isEmpty else { return text }
        if whole.contains(text) { return Self.replacement }
        var bytes = Array(text.utf8)
        var changed = false
        let replacement = Array(Self.replacement.utf8)
        for value in inside where bytes.count >= value.count {
            // UTF-8 is self-synchronizing: a match of valid UTF-8 starts and ends on scalar boundaries.
            if bytes.firstRange(of: value) != nil {
                bytes.replace(value, with: replacement)
                changed = true
            }
        }
        if maskParts(&bytes) { changed = true }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// Replaces every run of the text made of pieces of the values with `***`.
    private func maskParts(_ bytes: inout [UInt8]) -> Bool {
        guard !parts.isEmpty, bytes.count >= Self.shortestMaskedPart else { return false }
        var covered = [Bool](repeating: false, count: bytes.count)
        var found = false
        Self.eachPart(of: bytes) { hash, window in
            guard let part = parts[hash], part.elementsEqual(window) else { return }
            for index in window.indices { covered[index] = true }
            found = true
        }
        guard found else { return false }
        // A run widens to whole characters: a piece may start or end inside one.
        for index in covered.indices where covered[index] {
            var start = index
            while start > 0, bytes[start] & 0xC0 == 0x80, !covered[start - 1] {
                start -= 1
                covered[start] = true
            }
        }
        for index in covered.indices.reversed() where covered[index] {
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80, !covered[end] {
                covered[end] = true
                end += 1
            }
        }
        var masked: [UInt8] = []
        masked.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if covered[index] {
                masked.append(contentsOf: Self.replacement.utf8)
                while index < bytes.count && covered[index] { index += 1 }
            } else {
                masked.append(bytes[index])
                index += 1
            }
        }
        bytes = masked
        return true
    }

    /// Calls `body` with the hash and the bytes of every run of ``shortestMaskedPart`` bytes,
    /// hashed as it rolls (a polynomial hash, so each step costs the same whatever the length).
    private static func eachPart(of bytes: [UInt8], _ body: (UInt64, ArraySlice<UInt8>) -> Void) {
        let length = shortestMaskedPart
        guard bytes.count >= length else { return }
        let base: UInt64 = 1_099_511_628_211
        var highest: UInt64 = 1
        for _ in 1..<length { highest = highest &* base }
        var hash: UInt64 = 0
        for index in 0..<length { hash = hash &* base &+ UInt64(bytes[index]) }
        body(hash, bytes[0..<length])
        var start = 0
        while start + length < bytes.count {
            hash = (hash &- UInt64(bytes[start]) &* highest) &* base &+ UInt64(bytes[start + length])
            start += 1
            body(hash, bytes[start..<(start + length)])
        }
    }

    /// Optional text, masked.
    public func mask(_ text: String?) -> String? {
        text.map { mask($0) }
    }

    // MARK: Values

    /// A value with every text inside it masked, recursively.
    ///
    /// ```swift
    /// mask.mask(IntentValue.dictionary(["token": .string("s3cr3t-value")]))   // {"token": "***"}
    /// ```
    public func mask(_ value: IntentValue) -> IntentValue {
        guard !isEmpty else { return value }
        switch value {
        case .string(let text):
            return .string(mask(text))
        case .url(let url):
            let text = url.absoluteString
            let masked = mask(text)
            guard masked != text else { return value }
            return URL(string: masked).map(IntentValue.url) ?? .string(masked)
        case .file(let file):
            let path = file.fileURL.path
            let masked = mask(path)
            let name = mask(file.filename)
            guard masked != path || name != file.filename else { return value }
            return .file(IntentFile(fileURL: URL(fileURLWithPath: masked), filename: name))
        case .list(let elements):
            return .list(elements.map { mask($0) })
        case .dictionary(let entries):
            return .dictionary(mask(entries))
        case .enumCase(var enumCase):
            enumCase.rawValue = mask(enumCase.rawValue)
            enumCase.title = mask(enumCase.title)
            return .enumCase(enumCase)
        case .entity(var entity):
            entity.identifier = mask(entity.identifier)
            entity.title = mask(entity.title)
            entity.subtitle = mask(entity.subtitle)
            entity.properties = mask(entity.properties)
            return .entity(entity)
        case .null, .bool, .int, .double, .date:
            return value
        }
    }

    /// An optional value, masked.
    public func mask(_ value: IntentValue?) -> IntentValue? {
        value.map { mask($0) }
    }

    /// Values by name (a trace's inputs, a dictionary), keys and values masked.
    ///
    /// ```swift
    /// mask.mask(["header": .string("Bearer s3cr3t-value")])   // ["header": "Bearer ***"]
    /// ```
    public func mask(_ values: [String: IntentValue]) -> [String: IntentValue] {
        guard !isEmpty else { return values }
        var masked: [String: IntentValue] = [:]
        for (key, value) in values { masked[mask(key)] = mask(value) }
        return masked
    }

    // MARK: JSON

    /// A value as it appears inside a JSON string: `"`, `\` and control characters escaped.
    static func jsonEscaped(_ value: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes]) else { return value }
        let array = String(decoding: data, as: UTF8.self)
        // ["…"] → …
        return String(array.dropFirst(2).dropLast(2))
    }
}

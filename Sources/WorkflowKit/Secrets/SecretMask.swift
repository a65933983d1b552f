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
/// longest first, so a secret that contains another is hidden whole. The JSON-escaped form of
/// a value (quotes, backslashes, line breaks) is masked too.
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

    /// The values masked inside text, as UTF-8, longest first.
    private let inside: [[UInt8]]
    /// The values masked only as a whole text.
    private let whole: Set<String>

    /// A mask of these values; empty values are ignored.
    ///
    /// - Parameter values: The secret values.
    public init(values: some Sequence<String>) {
        var inside: Set<[UInt8]> = []
        var whole: Set<String> = []
        for value in values where !value.isEmpty {
            whole.insert(value)
            guard value.count >= Self.shortestMaskedInside else { continue }
            inside.insert(Array(value.utf8))
            let escaped = Self.jsonEscaped(value)
            if escaped != value { inside.insert(Array(escaped.utf8)) }
        }
        self.inside = inside.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        self.whole = whole
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
        return changed ? String(decoding: bytes, as: UTF8.self) : text
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

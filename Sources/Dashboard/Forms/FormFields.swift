import Foundation

/// The fields of a URL-encoded form or query (`a=1&b=two+words`), in order, decoded.
///
/// ```swift
/// let fields = FormFields(encoded: "status=failed&workflow=report")
/// fields["status"]   // "failed"
/// ```
struct FormFields: Sendable {
    /// The fields in the order given; a name may come more than once.
    private(set) var pairs: [(name: String, value: String)] = []

    init() {}

    /// Decodes a form; `nil` when a name or value is not valid percent-encoding.
    init?(encoded: String) {
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(halves[0]), let value = Self.decode(halves.count > 1 ? halves[1] : "") else { return nil }
            pairs.append((name, value))
        }
    }

    /// The first value of a field, or `nil` when the form lacks it.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The first value of a field with surrounding blanks removed, or `nil` when it is missing or blank.
    func nonEmpty(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

import Foundation
import IntentKit

/// How much of a run's values the history keeps: each value (a step's inputs, output or
/// details, the run's inputs and output, an error or a dialog) at most ``valueLimit`` bytes,
/// and a run's values at most ``runLimit`` bytes in all.
///
/// A value past either cap is stored as a text that keeps its beginning and says what was
/// left out and why, so the trace shows where a large value was and the history stays small:
///
/// ```swift
/// var cap = StoredValueCap()
/// cap.json(.string(String(repeating: "x", count: 10_000_000)))
/// // "\"xxxx…\" … [not kept: 10000002 bytes of JSON in all; the run history keeps 65536 bytes of each value]"
/// ```
public struct StoredValueCap: Sendable {
    /// The most bytes kept of one value: 64 KiB.
    public static let valueLimit = 64 * 1024
    /// The most bytes kept of one run's values in all: 8 MiB.
    public static let runLimit = 8 * 1024 * 1024
    /// How much of a value past a cap is kept to show what it was: 1 KiB.
    static let previewLength = 1024

    /// What is left of the run's allowance.
    private(set) var remaining = runLimit

    /// A cap with the whole allowance of one run.
    public init() {}

    /// A value as JSON, or within the caps the note that replaces it.
    public mutating func json(_ value: IntentValue) -> String {
        keep(value.jsonText, kind: "JSON")
    }

    /// Optional values as JSON.
    public mutating func json(_ value: IntentValue?) -> String? {
        value.map { json($0) }
    }

    /// A text (an error, a dialog) within the caps.
    public mutating func text(_ text: String?) -> String? {
        text.map { keep($0, kind: "text") }
    }

    private mutating func keep(_ text: String, kind: String) -> String {
        let size = text.utf8.count
        if size <= Self.valueLimit && size <= remaining {
            remaining -= size
            return text
        }
        let reason =
            size > Self.valueLimit
            ? "the run history keeps \(Self.valueLimit) bytes of each value"
            : "the run history keeps \(Self.runLimit) bytes of a run's values in all"
        var preview = Substring(text).utf8.prefix(min(Self.previewLength, remaining))
        while !preview.isEmpty, String(preview) == nil { preview = preview.dropLast() }
        let kept = (String(preview) ?? "") + " … [not kept: \(size) bytes of \(kind) in all; \(reason)]"
        remaining = max(0, remaining - preview.count)
        return kept
    }
}

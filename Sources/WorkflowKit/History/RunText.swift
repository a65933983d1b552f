import Foundation

/// Recorded runs and steps as short text, for the terminal and the dashboard: durations, a
/// step's details one per line, JSON on one line.
///
/// ```swift
/// RunText.duration(from: run.startedAt, to: run.endedAt)   // "12 ms", "1.20 s" or "—" while running
/// ```
package enum RunText {
    package static func duration(from start: Date, to end: Date?) -> String {
        guard let end else { return "—" }
        let seconds = end.timeIntervalSince(start)
        return seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    /// A step's recorded details, one `name: value` line each in name order (`status: 2`,
    /// `stderr: …` with its lines joined by ` / `).
    package static func details(_ json: String?) -> [String] {
        guard let json, let details = RunJSON.value(json) as? [String: Any] else { return [] }
        return details.keys.sorted().map { name in
            let value = details[name]
            let text: String
            if let string = value as? String {
                let oneLine = string.split(separator: "\n").joined(separator: " / ")
                text = oneLine.count > 300 ? "…" + oneLine.suffix(299) : oneLine
            } else if let value, !(value is NSNull) {
                text = compact(RunJSON.text(value))
            } else {
                text = "null"
            }
            return "\(name): \(text)"
        }
    }

    /// JSON on one line, shortened to 160 characters.
    package static func compact(_ json: String) -> String {
        let oneLine = json.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return oneLine.count > 160 ? String(oneLine.prefix(157)) + "…" : oneLine
    }

    /// Whether an error text is a located diagnostic that begins with its own `error:` label.
    package static func isDiagnostic(_ text: String) -> Bool {
        let firstLine = text.prefix { $0 != "\n" }
        return firstLine.hasPrefix("error: ") || firstLine.contains(": error: ")
    }
}

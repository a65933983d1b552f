import Foundation
import IntentKit

/// Prints what an intent produced, as text for people or JSON for programs.
enum OutcomePrinter {
    /// Prints an outcome on standard output: JSON, or its text when it has any (no empty line).
    static func print(_ outcome: PerformOutcome, json: Bool) {
        let text = json ? self.json(outcome) : self.text(outcome)
        if !text.isEmpty { CommandOutput.current.print(text + "\n") }
    }

    static func text(_ outcome: PerformOutcome) -> String {
        var lines: [String] = []
        append(outcome, to: &lines, depth: 0)
        // The value last, for scripts; not repeated when the dialog already says exactly it.
        if let value = outcome.value, !value.isNull, value.displayText != outcome.dialog {
            lines.append(value.displayText)
        }
        return lines.joined(separator: "\n")
    }

    private static func append(_ outcome: PerformOutcome, to lines: inout [String], depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        if let dialog = outcome.dialog { lines.append(indent + dialog) }
        if let snippet = outcome.snippet {
            lines += snippet.components(separatedBy: "\n").map { indent + $0 }
        }
        for opened in outcome.opened {
            lines.append(indent + "→ \(opened.intentName)")
            append(opened, to: &lines, depth: depth + 1)
        }
    }

    static func json(_ outcome: PerformOutcome) -> String {
        json(object(outcome))
    }

    static func object(_ outcome: PerformOutcome) -> IntentValue {
        var object: [String: IntentValue] = ["intent": .string(outcome.intentName)]
        object["value"] = outcome.value ?? .null
        object["dialog"] = outcome.dialog.map(IntentValue.string) ?? .null
        object["snippet"] = outcome.snippet.map(IntentValue.string) ?? .null
        object["opened"] = .list(outcome.opened.map(self.object))
        return .dictionary(object)
    }

    static func json(_ value: IntentValue) -> String {
        value.jsonText
    }
}

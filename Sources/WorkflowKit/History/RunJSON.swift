import Foundation

/// Runs as JSON documents, with stored values (outputs, inputs) nested as JSON.
package enum RunJSON {
    package static func run(_ run: RunHistory.Run) -> [String: Any] {
        [
            "id": run.id, "workflow": run.workflow, "name": run.name ?? NSNull(), "trigger": run.trigger,
            "startedAt": run.startedAt.formatted(.iso8601), "endedAt": run.endedAt?.formatted(.iso8601) ?? NSNull(),
            "status": run.status.rawValue, "inputs": value(run.inputs), "output": value(run.output), "error": run.error ?? NSNull()
        ]
    }

    package static func step(_ step: RunHistory.RecordedStep) -> [String: Any] {
        [
            "position": step.position, "depth": step.depth, "kind": step.kind, "stepID": step.stepID ?? NSNull(),
            "file": step.file, "line": step.line, "column": step.column, "inputs": value(step.inputs),
            "output": value(step.output), "dialog": step.dialog ?? NSNull(), "startedAt": step.startedAt.formatted(.iso8601),
            "durationSeconds": step.durationSeconds, "error": step.error ?? NSNull(), "details": step.details.map(value) ?? [:],
            "branch": step.branch ?? NSNull()
        ]
    }

    /// A stored JSON text as a JSON value (the text itself if it is not JSON).
    package static func value(_ text: String?) -> Any {
        guard let text else { return NSNull() }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) ?? text
    }

    package static func text(_ document: Any) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
            ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

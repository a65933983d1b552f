import Foundation
import IntentKit
import WorkflowKit

/// What `shortcuts view FILE` prints for a workflow: an outline as text, or as JSON.
enum WorkflowView {
    static func render(_ workflow: Workflow) -> String {
        var lines = [workflow.name?.value ?? URL(fileURLWithPath: workflow.fileName).lastPathComponent]
        if let description = workflow.description?.value { lines.append(description) }
        if !workflow.inputs.isEmpty {
            lines.append("")
            lines.append("Inputs:")
            for input in workflow.inputs {
                var line = "  \(input.name.value): \(input.type.value)"
                if let defaultValue = input.defaultValue { line += " = " + WorkflowView.text(of: defaultValue) }
                if !input.isRequired && input.defaultValue == nil { line += " (optional)" }
                lines.append(line + (input.description.map { "  \($0)" } ?? ""))
            }
        }
        lines.append("")
        lines.append("Steps:")
        func outline(_ steps: [Step], depth: Int) {
            for step in steps {
                let indent = String(repeating: "  ", count: depth + 1)
                var line = "\(indent)\(step.location.line): \(step.kind.keyword)"
                if let target = target(of: step) { line += " \(target)" }
                if let id = step.id?.value { line += "  → \(id)" }
                lines.append(line)
                switch step.kind {
                case .if(let branch):
                    outline(branch.thenSteps, depth: depth + 1)
                    if !branch.elseSteps.isEmpty {
                        lines.append("\(indent)else")
                        outline(branch.elseSteps, depth: depth + 1)
                    }
                case .repeat(let loop): outline(loop.steps, depth: depth + 1)
                case .try(let block):
                    outline(block.steps, depth: depth + 1)
                    for (title, steps) in [("catch", block.catchSteps), ("finally", block.finallySteps)] {
                        guard let steps else { continue }
                        lines.append("\(indent)\(title)")
                        outline(steps, depth: depth + 1)
                    }
                case .menu(let menu):
                    for option in menu.options {
                        lines.append("\(indent)  \"\(option.title.value)\":")
                        outline(option.steps, depth: depth + 2)
                    }
                case .parallel(let parallel):
                    for (position, branch) in parallel.branches.enumerated() {
                        lines.append("\(indent)  branch \(position + 1):")
                        outline(branch.steps, depth: depth + 2)
                    }
                default: break
                }
            }
        }
        outline(workflow.steps, depth: 0)
        if let onFailure = workflow.onFailure {
            lines.append("")
            lines.append("On failure:")
            outline(onFailure.value, depth: 0)
        }
        if let automation = workflow.automation {
            lines.append("")
            lines.append("Automation: " + automation.triggerPhrases.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// The outline as JSON:
    /// `{"file", "name", "description", "inputs": [{"name", "type", "description"}],
    ///   "steps": [{"line", "kind", "target", "id", "steps"?, "else"?, "options"?, "catch"?, "finally"?, "branches"?}], "onFailure": [step] | null,
    ///   "automation": {"schedule", "timeZone", "webhook": {"name", "secret", "rate"}, "watch": {"path", "events", "pattern", "debounce"}} | null}`.
    static func object(_ workflow: Workflow) -> IntentValue {
        func outline(_ steps: [Step]) -> IntentValue {
            .list(
                steps.map { step in
                    var object: [String: IntentValue] = [
                        "line": .int(step.location.line), "kind": .string(step.kind.keyword),
                        "target": target(of: step).map(IntentValue.string) ?? .null,
                        "id": step.id.map { .string($0.value) } ?? .null
                    ]
                    switch step.kind {
                    case .if(let branch):
                        object["steps"] = outline(branch.thenSteps)
                        object["else"] = outline(branch.elseSteps)
                    case .repeat(let loop): object["steps"] = outline(loop.steps)
                    case .try(let block):
                        object["steps"] = outline(block.steps)
                        object["catch"] = block.catchSteps.map(outline) ?? .null
                        object["finally"] = block.finallySteps.map(outline) ?? .null
                    case .menu(let menu):
                        object["options"] = .list(
                            menu.options.map {
                                .dictionary(["title": .string($0.title.value), "steps": outline($0.steps)])
                            })
                    case .parallel(let parallel): object["branches"] = .list(parallel.branches.map { outline($0.steps) })
                    default: break
                    }
                    return .dictionary(object)
                })
        }
        return .dictionary([
            "file": .string(workflow.fileName),
            "name": workflow.name.map { .string($0.value) } ?? .null,
            "description": workflow.description.map { .string($0.value) } ?? .null,
            "inputs": .list(
                workflow.inputs.map {
                    .dictionary([
                        "name": .string($0.name.value), "type": .string($0.type.value),
                        "description": $0.description.map(IntentValue.string) ?? .null,
                        "default": $0.defaultValue.map { .string(WorkflowView.text(of: $0)) } ?? .null,
                        "required": .bool($0.isRequired)
                    ])
                }),
            "steps": outline(workflow.steps),
            "onFailure": workflow.onFailure.map { outline($0.value) } ?? .null,
            "automation": workflow.automation.map(TriggerText.object(of:)) ?? .null
        ])
    }

    /// A value as written in the file: its text, or its source span.
    static func text(of node: ValueNode) -> String {
        switch node {
        case .literal(let literal): return literal.text
        case .list(let elements, _): return "[" + elements.map(text(of:)).joined(separator: ", ") + "]"
        case .mapping(let entries, _): return "{" + entries.map { "\($0.name.value): \(text(of: $0.value))" }.joined(separator: ", ") + "}"
        case .expression, .template: return "(computed)"
        }
    }

    /// What a step acts on: its intent, entity, nested workflow or variable.
    private static func target(of step: Step) -> String? {
        switch step.kind {
        case .perform(let perform): return perform.intent.description
        case .find(let find): return find.entity.description
        case .search(let search):
            var parts: [String] = []
            if let entity = search.entity { parts.append(entity.description) }
            if let index = search.index { parts.append("in \(index.value)") }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        case .run(let nested): return nested.workflow.value
        case .set(let set): return set.variable.value
        case .repeat(let loop):
            let limit = loop.maxIterations.map { " (at most \($0.value) passes)" } ?? ""
            switch loop.mode {
            case .while: return "while" + limit
            case .until: return "until" + limit
            default: return nil
            }
        default: return nil
        }
    }
}

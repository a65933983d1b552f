import IntentKit
import Yams

/// Converts a composed YAML node tree into a ``Workflow`` by hand, collecting every problem.
///
/// Each part is converted independently: a mistake in one step is reported and the
/// conversion goes on with the next, so that one load reports all the errors of a file
/// that the YAML structure allows to find. The conversion of a part returns `nil` after
/// reporting why; callers never report that part again. A file with errors still converts to
/// a partial workflow (``Workflow/isPartial``) of the parts without errors, which validation
/// checks too.
final class WorkflowConverter {
    /// The deepest nesting of steps and values accepted.
    static let maximumDepth = 100
    /// The most nodes converted, which bounds the work done on files whose aliases multiply.
    static let maximumNodeCount = 200_000

    static let topLevelKeys = ["name", "description", "input", "steps", "output", "automation", "onFailure"]
    static let inputKeys = ["type", "default", "description", "required"]

    let file: String
    let source: SourceText
    let shield: ExpressionShield
    private(set) var diagnostics: [Diagnostic] = []
    /// The first location of each step id, for reporting duplicates.
    var stepIDLocations: [String: SourceLocation] = [:]
    /// How many `repeat` loops the step being converted is inside, for `break` and `continue`.
    var loopDepth = 0
    private var convertedNodeCount = 0
    private(set) var isAborted = false
    private var reportedDepth = false

    init(file: String, source: SourceText, shield: ExpressionShield) {
        self.file = file
        self.source = source
        self.shield = shield
    }

    // MARK: - Workflow

    func convertWorkflow(_ root: Node?, sourceText: String) -> Workflow? {
        let fileStart = SourceLocation(file: file, line: 1, column: 1)
        guard let root else {
            report("the workflow file is empty", at: fileStart, help: "a workflow needs at least a 'steps:' list")
            return nil
        }
        guard case .mapping(let mapping) = root else {
            report("expected a mapping with 'name' and 'steps' at the top level, got \(describe(root))", at: location(of: root))
            return nil
        }
        let entries = entries(of: mapping)
        for entry in entries.all where !Self.topLevelKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown top-level key '\(entry.key.value)'", candidates: Self.topLevelKeys)
        }
        let name = entries.nonNull("name").flatMap { text($0, for: "'name'") }
        let description = entries.nonNull("description").flatMap { text($0, for: "'description'") }
        let inputs = entries.nonNull("input").map(convertInputs) ?? []
        var steps: [Step] = []
        if let stepsNode = entries["steps"]?.value {
            steps = convertSteps(stepsNode, for: "'steps'", depth: 1)
        } else {
            report("missing required key 'steps'", at: location(of: root), help: "add a 'steps:' list")
        }
        let output = entries.nonNull("output").flatMap { convertValue($0, depth: 1) }
        let automation = entries.nonNull("automation").flatMap(convertAutomation)
        let onFailure = entries["onFailure"].flatMap(convertOnFailure)
        guard !isAborted else { return nil }
        var workflow = Workflow(
            name: name,
            description: description,
            inputs: inputs,
            steps: steps,
            output: output,
            automation: automation,
            fileName: file,
            sourceText: sourceText
        )
        workflow.onFailure = onFailure
        workflow.isPartial = !diagnostics.isEmpty
        return workflow
    }

    private func convertInputs(_ node: Node) -> [InputDeclaration] {
        guard let entries = mappingEntries(node, for: "'input'") else { return [] }
        return entries.all.compactMap { entry in
            guard checkName(entry.key, kind: "input name") else { return nil }
            if let root = ReservedRoot(rawValue: entry.key.value) {
                report(
                    "'\(root.rawValue)' is a reserved name and cannot be used as an input name", at: entry.key.location,
                    help: "choose another name; \(root.example) reads \(root.what)")
                return nil
            }
            return convertInput(named: entry.key, entry.value)
        }
    }

    private func convertInput(named name: Located<String>, _ node: Node) -> InputDeclaration? {
        if case .scalar = node, !Self.isNull(node) {
            guard let type = text(node, for: "the type of input '\(name.value)'") else { return nil }
            return InputDeclaration(name: name, type: type, defaultValue: nil, description: nil)
        }
        guard let entries = mappingEntries(node, for: "input '\(name.value)'") else { return nil }
        for entry in entries.all where !Self.inputKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in input '\(name.value)'", candidates: Self.inputKeys)
        }
        let defaultValue = entries["default"].flatMap { convertValue($0.value, depth: 2) }
        let description = entries.nonNull("description").flatMap { text($0, for: "'description'") }
        guard let typeEntry = entries["type"] else {
            guard !isMisspelled("type", in: entries) else { return nil }
            report("input '\(name.value)' is missing required key 'type'", at: name.location, help: "add a type such as 'type: String'")
            return nil
        }
        guard let type = text(typeEntry.value, for: "'type'") else { return nil }
        let required = entries["required"].flatMap { boolean($0.value, for: "'required'") }
        if let required, required.value, let defaultEntry = entries["default"] {
            report(
                "input '\(name.value)' is required, so its default would never be used", at: defaultEntry.key.location,
                help: "remove 'default', or remove 'required: true'")
            return nil
        }
        return InputDeclaration(name: name, type: type, defaultValue: defaultValue, description: description?.value, required: required)
    }

    // MARK: - Reporting

    func report(_ message: String, at location: SourceLocation, help: String? = nil) {
        diagnostics.append(.error(message, at: location, help: help))
    }

    func reportUnknownKey(_ key: Located<String>, message: String, candidates: [String]) {
        let help = NameSuggestion.nearest(to: key.value, among: candidates).map { "did you mean '\($0)'?" }
        report(message, at: key.location, help: help)
    }

    /// Counts a converted node and stops the conversion once the file is unreasonably large or deep.
    func admitNode(at node: Node, depth: Int) -> Bool {
        admit(depth: depth, location: location(of: node))
    }

    /// Counts a converted part located by `location`, which is evaluated only to report a problem.
    func admit(depth: Int, location: @autoclosure () -> SourceLocation) -> Bool {
        guard !isAborted else { return false }
        convertedNodeCount += 1
        if convertedNodeCount > Self.maximumNodeCount {
            isAborted = true
            report(
                "the workflow is too large: more than \(Self.maximumNodeCount) values (are aliases repeating each other?)",
                at: location())
            return false
        }
        if depth > Self.maximumDepth {
            if !reportedDepth {
                reportedDepth = true
                report("the workflow is nested too deeply: more than \(Self.maximumDepth) levels", at: location())
            }
            return false
        }
        return true
    }
}

import Yams

/// Converting `repeat: { while: … }` and `repeat: { until: … }` loops, their
/// `maxIterations:`, and the `break` and `continue` steps inside loops.
extension WorkflowConverter {
    /// The keys that make a `repeat` a conditional loop.
    private static let conditionalKeys = ["while", "until", "maxIterations"]

    /// Whether a `repeat:` mapping is a `while` or `until` loop (or has `maxIterations:`).
    func isConditionalRepeat(_ node: Node) -> Bool {
        guard case .mapping(let mapping) = node else { return false }
        return entries(of: mapping).all.contains { Self.conditionalKeys.contains($0.key.value) }
    }

    /// `{ while: condition }` or `{ until: condition }`, with an optional `maxIterations:`.
    ///
    /// The condition is written as an `if:` condition: `{ value: …, equalTo: … }`, `all:`, `any:`.
    func convertConditionalRepeat(_ node: Node, depth: Int) -> (mode: RepeatStep.Mode, maxIterations: Located<Int>?)? {
        guard case .mapping(let mapping) = node else { return nil }
        let entries = entries(of: mapping)
        let keys = Self.conditionalKeys + ["count", "each", "as", "concurrency"]
        var failed = false
        for entry in entries.all where !keys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'repeat'", candidates: keys)
            failed = true
        }
        for key in ["count", "each", "as", "concurrency"] {
            guard let entry = entries[key] else { continue }
            report(
                "'\(key)' cannot be combined with 'while', 'until' or 'maxIterations' in 'repeat'", at: entry.key.location,
                help: "'maxIterations' belongs to 'while' and 'until' loops; 'count' and 'each' end by themselves")
            failed = true
        }
        let maxIterations = entries["maxIterations"].flatMap { count($0.value, for: "'maxIterations'", minimum: 1) }
        if entries["maxIterations"] != nil && maxIterations == nil { failed = true }
        switch (entries["while"], entries["until"]) {
        case (let condition?, nil):
            guard let converted = convertIfCondition(condition.value, depth: depth + 1), !failed else { return nil }
            return (.while(converted), maxIterations)
        case (nil, let condition?):
            guard let converted = convertIfCondition(condition.value, depth: depth + 1), !failed else { return nil }
            return (.until(converted), maxIterations)
        case (_?, let until?):
            report(
                "'repeat' takes either 'while' or 'until', not both", at: until.key.location,
                help: "'while' checks before each pass, 'until' after; keep one")
            return nil
        case (nil, nil):
            guard !failed else { return nil }
            report(
                "'maxIterations' needs 'while' or 'until' in 'repeat'", at: entries.location,
                help: "write '{ while: { value: ${more}, equalTo: true }, maxIterations: 100 }'")
            return nil
        }
    }

    /// The `steps:` of a `repeat`, inside which `break` and `continue` are allowed.
    func convertLoopSteps(_ node: Node, depth: Int) -> [Step] {
        loopDepth += 1
        defer { loopDepth -= 1 }
        return convertSteps(node, for: "'steps'", depth: depth)
    }

    /// The `steps:` of a `repeat` with `concurrency:`, whose passes run at the same time, so
    /// `break` and `continue` are not allowed directly inside (only in a loop of their own).
    func convertConcurrentSteps(_ node: Node, depth: Int) -> [Step] {
        let enclosingLoops = loopDepth
        loopDepth = 0
        defer { loopDepth = enclosingLoops }
        return convertSteps(node, for: "'steps'", depth: depth)
    }

    /// `break:` or `continue:`, which take no value and belong inside a `repeat`.
    func convertLoopControl(_ settings: StepSettings) -> StepKind? {
        let keyword = settings.keyword.rawValue
        guard Self.isNull(settings.value) else {
            report(
                "'\(keyword)' takes no value, got \(describe(settings.value))", at: location(of: settings.value),
                help: "write '- \(keyword):' alone")
            return nil
        }
        guard loopDepth > 0 else {
            report(
                "'\(keyword)' is only allowed inside the steps of a 'repeat'", at: settings.kindEntry.key.location,
                help: keyword == "break"
                    ? "use 'stop:' to end the workflow; a 'parallel' branch or a pass of a 'repeat' with 'concurrency' cannot end a loop"
                    : "remove it, or put it inside a 'repeat' (not a 'parallel' branch or a 'repeat' with 'concurrency')")
            return nil
        }
        return settings.keyword == .break ? .break : .continue
    }
}

import Yams

/// Converting `try:` blocks with their `catch:` and `finally:` steps.
extension WorkflowConverter {
    /// `try:` steps with `catch:`, `finally:` or both.
    func convertTry(_ settings: StepSettings) -> StepKind? {
        let depth = settings.depth + 1
        let steps = convertSteps(settings.value, for: "'try'", depth: depth)
        let catchSteps = settings["catch"].map { convertSteps($0, for: "'catch'", depth: depth) }
        let finallySteps = settings["finally"].map { convertSteps($0, for: "'finally'", depth: depth) }
        guard catchSteps != nil || finallySteps != nil else {
            guard !isMisspelled("catch", in: settings.entries), !isMisspelled("finally", in: settings.entries) else { return nil }
            report(
                "'try' needs 'catch:', 'finally:' or both", at: settings.kindEntry.key.location,
                help: "add 'catch:' with the steps to run when a step fails (${error} says why)")
            return nil
        }
        return .try(TryStep(steps: steps, catchSteps: catchSteps, finallySteps: finallySteps))
    }

    /// The workflow's `onFailure:` steps: a list of at least one step.
    func convertOnFailure(_ entry: MappingEntries.Entry) -> Located<[Step]>? {
        guard case .sequence(let sequence) = entry.value, !sequence.isEmpty else {
            report(
                "'onFailure' needs a list of at least one step, got \(describe(entry.value))", at: entry.key.location,
                help: "list the steps to run when the run fails, such as '- perform: Notify.Show', or remove 'onFailure'")
            return nil
        }
        return Located(convertSteps(entry.value, for: "'onFailure'", depth: 1), at: entry.key.location)
    }

    /// Reports `catch:` or `finally:` written in a step without `try:`; returns whether it did.
    func reportCatchWithoutTry(_ entries: MappingEntries) -> Bool {
        let orphans = entries.all.filter { $0.key.value == "catch" || $0.key.value == "finally" }
        for entry in orphans {
            report(
                "'\(entry.key.value)' without 'try'", at: entry.key.location,
                help: "put the steps that may fail under 'try:' in the same step, beside '\(entry.key.value):'")
        }
        return !orphans.isEmpty
    }
}

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

    /// The kinds of step that cannot have `continueOnError:`, and why.
    static let kindsThatCannotContinue: [StepKeyword: String] = [
        .comment: "a comment does nothing", .break: "'break' cannot fail", .continue: "'continue' cannot fail",
        .stop: "'stop' ends the run on purpose", .fail: "'fail' fails the run on purpose", .try: "a 'try' handles its errors with 'catch:'"
    ]

    /// `continueOnError: true` or `false` (the default); `nil` after reporting a mistake.
    func convertContinueOnError(_ entry: MappingEntries.Entry?, keyword: StepKeyword) -> Bool? {
        guard let entry else { return false }
        guard let flag = boolean(entry.value, for: "'continueOnError'") else { return nil }
        if let reason = Self.kindsThatCannotContinue[keyword] {
            report(
                "'continueOnError' is not allowed in a '\(keyword.rawValue)' step: \(reason)", at: entry.key.location,
                help: keyword == .try ? "remove it; 'catch:' runs when a step inside fails" : "remove it")
            return nil
        }
        return flag.value
    }

    /// The kinds of step that cannot have `timeout:`: they end at once.
    private static let kindsWithoutTimeout: Set<StepKeyword> = [.comment, .stop, .fail, .break, .continue, .set, .append]

    /// `timeout: 30s`: `.some(nil)` when absent, `nil` after reporting a mistake (a value that is
    /// not a duration, a zero duration, a step that ends at once).
    func convertTimeout(_ entry: MappingEntries.Entry?, keyword: StepKeyword) -> Located<Duration>?? {
        guard let entry else { return .some(nil) }
        guard let timeout = duration(entry.value, for: "'timeout'") else { return nil }
        if Self.kindsWithoutTimeout.contains(keyword) {
            report("'timeout' is not allowed in a '\(keyword.rawValue)' step: it ends at once", at: entry.key.location, help: "remove it")
            return nil
        }
        guard timeout.value > .zero else {
            report("a timeout must be longer than zero", at: timeout.location, help: "write a duration such as 30s or 2m")
            return nil
        }
        return .some(timeout)
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

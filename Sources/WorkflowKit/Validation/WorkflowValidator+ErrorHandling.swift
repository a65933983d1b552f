import IntentKit

/// Checking `try:` blocks: `${error}` is known inside `catch:`, as a dictionary of `message`,
/// `step` and `location`.
extension ValidationPass {
    mutating func tryBlock(_ block: TryStep) -> IntentValueType? {
        steps(block.steps)
        if let catchSteps = block.catchSteps {
            let saved = scope["error"]
            scope["error"] = .dictionary(.string)
            steps(catchSteps)
            scope["error"] = saved
        }
        if let finallySteps = block.finallySteps { steps(finallySteps) }
        return .any
    }

    /// The workflow's `onFailure:` steps, with `${error}` known.
    mutating func failureSteps(_ steps: [Step]) {
        scope["error"] = .dictionary(.string)
        self.steps(steps)
    }
}

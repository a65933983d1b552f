import IntentKit

extension ValidationPass {
    /// Checks each branch of a `parallel` step with the variables known before it; afterwards
    /// only the outputs of the branches' steps with an `id` are known, as at run time.
    mutating func parallel(_ parallel: ParallelStep) -> IntentValueType? {
        let before = scope
        var outputs: [String: IntentValueType] = [:]
        for branch in parallel.branches {
            scope = before
            steps(branch.steps)
            for id in WorkflowExecution.stepIDs(in: branch.steps) {
                outputs[id] = scope[id] ?? .any
                if let error = scope[id + ".error"] { outputs[id + ".error"] = error }
            }
        }
        scope = before
        scope.merge(outputs) { _, branch in branch }
        return .list(.any)
    }
}

import Yams

/// Converting `parallel:` branches and the `concurrency:` of `repeat`.
extension WorkflowConverter {
    /// `parallel:` — a list of branches, each a list of steps or a single step.
    func convertParallel(_ node: Node, depth: Int) -> ParallelStep? {
        guard case .sequence(let sequence) = node else {
            report(
                "expected a list of branches for 'parallel', got \(describe(node))", at: location(of: node),
                help: "start each branch with '- ', and write a branch of several steps as a list")
            return nil
        }
        guard !sequence.isEmpty else {
            report(
                "'parallel' needs at least one branch", at: location(of: node),
                help: "list the branches, such as '- wait: 1s'")
            return nil
        }
        // A branch runs on its own: `break` and `continue` cannot reach a loop around the `parallel`.
        let enclosingLoops = loopDepth
        loopDepth = 0
        defer { loopDepth = enclosingLoops }
        var branches: [ParallelStep.Branch] = []
        for (position, branch) in sequence.enumerated() {
            let branchLocation = location(of: branch)
            switch branch {
            case .sequence(let steps):
                guard !steps.isEmpty else {
                    report("branch \(position + 1) of 'parallel' has no steps", at: branchLocation)
                    return nil
                }
                branches.append(ParallelStep.Branch(steps: convertSteps(branch, for: "a branch", depth: depth + 1), location: branchLocation))
            case .mapping:
                guard let step = convertStep(branch, depth: depth + 1) else { return nil }
                branches.append(ParallelStep.Branch(steps: [step], location: branchLocation))
            default:
                report(
                    "expected a branch (a step, or a list of steps) in 'parallel', got \(describe(branch))", at: branchLocation,
                    help: "write a branch as a step such as 'wait: 1s', or as a list of steps")
                return nil
            }
        }
        return ParallelStep(branches: branches)
    }

    /// The `concurrency:` of a `repeat` mapping: `.some(nil)` when absent, `nil` after an error.
    func repeatConcurrency(_ node: Node, depth: Int) -> ValueNode?? {
        guard case .mapping(let mapping) = node, let entry = entries(of: mapping)["concurrency"] else { return .some(nil) }
        guard entries(of: mapping)["each"] != nil else {
            report("'concurrency' is only allowed with 'each'", at: entry.key.location)
            return nil
        }
        guard let value = convertValue(entry.value, depth: depth + 1) else { return nil }
        return .some(value)
    }
}

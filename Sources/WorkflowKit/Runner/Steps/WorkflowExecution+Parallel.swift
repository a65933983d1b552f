import Foundation
import IntentKit

extension WorkflowExecution {
    /// `parallel:` runs its branches at the same time and outputs their outputs in branch order.
    ///
    /// Each branch runs with a copy of the variables; the outputs of its steps that have an
    /// `id` are copied back when every branch has finished. The first failure cancels the other
    /// branches and fails the step.
    ///
    /// ```yaml
    /// - parallel:
    ///     - wait: 100ms
    ///     - - show: one
    ///       - show: two
    /// ```
    func execute(_ parallel: ParallelStep, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        record.inputs = ["branches": .int(parallel.branches.count)]
        let branches = parallel.branches
        let current = scope
        let outputs = try await runBranches(
            count: branches.count, concurrency: branches.count, kind: "branch", in: &scope, frame: frame,
            prepare: { position in
                (branches[position].steps, current, branches[position].location)
            })
        return .list(outputs)
    }

    /// `repeat: { each: …, concurrency: N }` runs up to N passes at the same time and outputs
    /// their outputs in the order of the elements.
    ///
    /// ```yaml
    /// - repeat: { each: "${books}", as: book, concurrency: 4 }
    ///   steps: [ { perform: Library.OpenBook, with: { book: "${book}" } } ]
    /// ```
    func execute(
        _ loop: RepeatStep, over list: IntentValue, concurrency node: ValueNode, in scope: inout RunScope, frame: StepFrame
    ) async throws -> IntentValue {
        let concurrency = try limit(node, in: scope)
        guard concurrency >= 1 else {
            throw WorkflowRunError("'concurrency' must be 1 or more, got \(concurrency)", at: node.location, sources: sources)
        }
        let elements = list.elements
        let current = scope
        let outputs = try await runBranches(
            count: elements.count, concurrency: concurrency, kind: "pass", in: &scope, frame: frame,
            prepare: { position in
                var passScope = current
                passScope.index = .int(position + 1)
                passScope.assign(elements[position], to: loop.itemName)
                return (loop.steps, passScope, loop.steps.first?.location ?? node.location)
            })
        return .list(outputs)
    }

    /// What one branch or pass did, returned from its task.
    private struct BranchOutcome: Sendable {
        var position: Int
        var output: IntentValue = .null
        var trace: [StepTrace] = []
        var variables: RunScope
        var failure: (any Error)?
        var startedAt: Date
        var duration: Duration = .zero
    }

    /// Runs `count` branches, at most `concurrency` at a time, each with its own execution, and
    /// appends their traces in branch order; the first failure cancels the others and is thrown.
    private func runBranches(
        count: Int, concurrency: Int, kind: String, in scope: inout RunScope, frame: StepFrame,
        prepare: (Int) -> (steps: [Step], scope: RunScope, location: SourceLocation)
    ) async throws -> [IntentValue] {
        let runner = self.runner
        let environment = self.environment
        let sources = self.sources
        let clock = self.clock
        let inside = StepFrame(workflow: frame.workflow, depth: frame.depth + 2, callers: frame.callers)
        var locations: [SourceLocation] = []
        var outcomes: [BranchOutcome] = []
        var failed = false
        await withTaskGroup(of: BranchOutcome.self) { group in
            func start(_ position: Int) {
                let branch = prepare(position)
                locations.append(branch.location)
                group.addTask {
                    let execution = WorkflowExecution(runner: runner, environment: environment)
                    execution.sources = sources
                    var branchScope = branch.scope
                    let started = clock.now()
                    var outcome = BranchOutcome(position: position, variables: branchScope, startedAt: started)
                    do {
                        outcome.output = try await execution.execute(branch.steps, in: &branchScope, frame: inside)
                    } catch {
                        outcome.failure = error
                    }
                    outcome.duration = clock.elapsed(since: started)
                    outcome.trace = execution.trace
                    outcome.variables = branchScope
                    return outcome
                }
            }
            var next = 0
            while next < min(concurrency, count) {
                start(next)
                next += 1
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if outcome.failure != nil, !failed {
                    failed = true
                    group.cancelAll()
                }
                if !failed, next < count {
                    start(next)
                    next += 1
                }
            }
        }
        outcomes.sort { $0.position < $1.position }
        for outcome in outcomes {
            trace.append(
                StepTrace(
                    kind: kind, stepID: nil, location: locations[outcome.position], depth: frame.depth + 1,
                    inputs: ["\(kind)": .int(outcome.position + 1)], output: outcome.failure == nil ? outcome.output : nil, dialog: nil,
                    startedAt: outcome.startedAt, duration: outcome.duration,
                    error: outcome.failure.flatMap(Self.message(of:)), branch: outcome.position + 1))
            trace.append(contentsOf: outcome.trace)
        }
        let failures = outcomes.compactMap(\.failure)
        if let failure = failures.first(where: { !($0 is WorkflowCancelled) }) ?? failures.first {
            throw failure
        }
        // The outputs of steps with an id are visible after the branches; other variables stay inside.
        for outcome in outcomes {
            let (steps, _, _) = prepare(outcome.position)
            for id in Self.stepIDs(in: steps) {
                if let value = outcome.variables[id] { scope.assign(value, to: id) }
                // `${id.error}` of a step with `continueOnError: true` inside the branch.
                if let error = outcome.variables[id + ".error"] { scope.assign(error, to: id + ".error") }
            }
        }
        return outcomes.map(\.output)
    }

    private static func message(of error: any Error) -> String? {
        if error is Stop { return nil }
        return (error as? WorkflowRunError)?.diagnostic.message ?? "\(error)"
    }

    /// The ids of steps, with the ids of the steps inside them.
    static func stepIDs(in steps: [Step]) -> [String] {
        Step.flattened(steps).compactMap { $0.id?.value }
    }
}

import Clockwork
import Foundation
import IntentKit

/// The state of one run: the trace, the sources of the files involved, and the intents found.
///
/// Each step kind runs in its own extension (`Steps/WorkflowExecution+Perform.swift`, …);
/// ``execute(_:in:frame:)`` runs a list of steps, traces each and hands it to its kind.
final class WorkflowExecution {
    let runner: WorkflowRunner
    /// The environment variables and secrets `${env.…}` and `${secrets.…}` read.
    let environment: RunEnvironment
    var trace: [StepTrace] = []
    var sources: [String: String] = [:]
    var intents: [String: IntentCatalog.FoundIntent] = [:]

    init(runner: WorkflowRunner, environment: RunEnvironment) {
        self.runner = runner
        self.environment = environment
    }

    /// Thrown by a `stop` step to end the workflow with an output.
    struct Stop: Error {
        var output: IntentValue
    }

    /// The clock the run reads the time from and waits on: its runner's.
    var clock: any EngineClock { runner.clock }

    /// The evaluator of values, with the sources of the files seen so far.
    var values: ValueEvaluator { ValueEvaluator(sources: sources, environment: environment) }

    /// Runs a workflow with relative paths resolved against its file's folder
    /// (``IntentExecution/workingDirectory``), wherever the process was started.
    func run(_ workflow: Workflow, inputs: [String: IntentValue], depth: Int, callers: [String]) async throws -> IntentValue {
        let folder = URL(fileURLWithPath: workflow.fileName).deletingLastPathComponent().standardizedFileURL
        return try await IntentExecution.$workingDirectory.withValue(folder) {
            try await runInFolder(workflow, inputs: inputs, depth: depth, callers: callers)
        }
    }

    private func runInFolder(_ workflow: Workflow, inputs: [String: IntentValue], depth: Int, callers: [String]) async throws -> IntentValue {
        sources[workflow.fileName] = workflow.sourceText
        prepareHosts(for: workflow)
        let evaluator = values
        var scope = RunScope(inputs: try await prepareInputs(workflow, given: inputs, evaluator: evaluator), clock: clock)
        let frame = StepFrame(workflow: workflow, depth: depth, callers: callers)
        do {
            _ = try await execute(workflow.steps, in: &scope, frame: frame)
        } catch let stop as Stop {
            return stop.output
        } catch {
            throw await runOnFailure(after: error, in: &scope, frame: frame)
        }
        guard let output = workflow.output else { return .null }
        return try values.evaluate(output, in: scope)
    }

    /// Starts the hosts (extensions, MCP servers) of the apps whose intents or entities the
    /// workflow's steps name, so that their start-up overlaps the steps before their first use.
    private func prepareHosts(for workflow: Workflow) {
        var prepared: Set<String> = []
        for step in Step.flattened(workflow.steps + (workflow.onFailure?.value ?? [])) {
            let app: IntentApp?
            switch step.kind {
            case .perform(let perform): app = try? intent(perform.intent).app
            case .find(let find): app = try? runner.catalog.entity(named: find.entity.description).app
            default: app = nil
            }
            guard let app, let hosted = app.hosted, prepared.insert(app.name).inserted else { continue }
            hosted.host.prepare()
        }
    }

    private func prepareInputs(_ workflow: Workflow, given: [String: IntentValue], evaluator: ValueEvaluator) async throws -> [String: IntentValue] {
        var values: [String: IntentValue] = [:]
        let empty = RunScope(inputs: [:], clock: clock)
        for name in given.keys.sorted() where !workflow.inputs.contains(where: { $0.name.value == name }) {
            let diagnostic = workflow.unknownInputDiagnostic(name)
            throw WorkflowRunError(diagnostic.message, at: diagnostic.location, help: diagnostic.help, sources: sources)
        }
        for declaration in workflow.inputs {
            let name = declaration.name.value
            var value = given[name]
            if value == nil, let defaultValue = declaration.defaultValue {
                value = try evaluator.evaluate(defaultValue, in: empty)
            }
            let type = InputTypes.type(named: declaration.type.value, in: runner.catalog)
            if value == nil, !declaration.isRequired {
                values[name] = .null
                continue
            }
            if value == nil {
                do {
                    value = try await runner.interaction.requestValue(
                        ValueRequest(name: name, question: declaration.description ?? "What is the \(name)?", type: type ?? .string))
                } catch let error as InteractionError {
                    var failure = WorkflowRunError("input '\(name)' \(error.description)", at: declaration.name.location, sources: sources)
                    if case .cannotAsk = error { failure.diagnostic.remedy = .giveInput(name: name, placeholder: "VALUE") }
                    throw failure
                }
            }
            guard let value else { continue }
            try await prepareApp(ofInputType: declaration.type.value)
            values[name] = try await convert(
                value, to: type, name: name, at: declaration.name.location, described: "input '\(name)' expects \(declaration.type.value)")
        }
        return values
    }

    /// Converts a value to a declared type, resolving entities.
    func convert(
        _ value: IntentValue, to type: IntentValueType?, name: String, at location: SourceLocation, described: String? = nil
    ) async throws -> IntentValue {
        guard let type, type != .any, type != .string || !value.isNull else { return value }
        do {
            let prepared = try await ValuePreparation.prepare(value, for: type, name: name, interaction: runner.interaction)
            return try ValueCoercion.coerce(prepared, to: type)
        } catch {
            throw WorkflowRunError("\(described ?? "'\(name)'"): \(error)", at: location, sources: sources)
        }
    }

    // MARK: Steps

    /// Runs steps in order, tracing each, and returns the last output.
    func execute(_ steps: [Step], in scope: inout RunScope, frame: StepFrame) async throws -> IntentValue {
        var last: IntentValue = .null
        for step in steps {
            if Task.isCancelled { throw WorkflowCancelled() }
            let started = clock.now()
            var record = StepTrace(
                kind: step.kind.keyword, stepID: step.id?.value, location: step.location, depth: frame.depth,
                inputs: [:], output: nil, dialog: nil, startedAt: started, duration: .zero, error: nil)
            // A step with steps inside is traced before them; others are traced once, when done.
            let traceIndex = trace.count
            let containsSteps = step.kind.containsSteps
            if containsSteps { trace.append(record) }
            let metrics = runner.metrics
            func finish(_ record: StepTrace) {
                if containsSteps { trace[traceIndex] = record } else { trace.append(record) }
                metrics.recordStepDuration(record.duration, kind: record.kind)
            }
            do {
                let output =
                    if let timeout = step.timeout {
                        try await execute(step, within: timeout, in: &scope, record: &record, frame: frame)
                    } else {
                        try await execute(step, in: &scope, record: &record, frame: frame)
                    }
                record.duration = clock.elapsed(since: started)
                record.output = output
                finish(record)
                if case .comment = step.kind { continue }
                if step.continueOnError, let id = step.id?.value { scope.assign(.null, to: id + ".error") }
                if let output {
                    if let id = step.id?.value { scope.assign(output, to: id) }
                    scope.previous = output
                    last = output
                }
            } catch let stop as Stop {
                record.duration = clock.elapsed(since: started)
                record.output = stop.output
                finish(record)
                throw stop
            } catch let signal as LoopSignal {
                record.duration = clock.elapsed(since: started)
                finish(record)
                throw signal
            } catch {
                record.duration = clock.elapsed(since: started)
                record.error = (error as? WorkflowRunError)?.diagnostic.message ?? "\(error)"
                if step.continueOnError, Self.isCatchable(error) {
                    last = continueAfter(error, of: step, record: &record, tracedFrom: traceIndex, in: &scope)
                    finish(record)
                    continue
                }
                finish(record)
                throw error
            }
        }
        return last
    }

    /// Hands a step to the executor of its kind.
    func execute(_ step: Step, in scope: inout RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue? {
        switch step.kind {
        case .perform(let perform): return try await execute(perform, in: scope, record: &record)
        case .find(let find): return try await execute(find, at: step.location, in: scope, record: &record)
        case .filter(let filter): return try execute(filter, at: step.location, in: scope, record: &record)
        case .show(let show): return try execute(show, in: scope, record: &record)
        case .set(let set): return try execute(set, in: &scope, record: &record)
        case .append(let append): return try execute(append, in: &scope, record: &record)
        case .if(let branch): return try await execute(branch, in: &scope, record: &record, frame: frame)
        case .repeat(let loop): return try await execute(loop, in: &scope, record: &record, frame: frame)
        case .menu(let menu): return try await execute(menu, of: step, in: &scope, record: &record, frame: frame)
        case .ask(let ask): return try await execute(ask, of: step, in: scope)
        case .run(let nested): return try await execute(nested, in: scope, record: &record, frame: frame)
        case .wait(let wait): return try await execute(wait)
        case .stop(let stop): return try execute(stop, in: scope)
        case .fail(let fail): return try execute(fail, at: step.location, in: scope, record: &record)
        case .comment: return nil
        case .search(let search): return try await execute(search, at: step.location, in: scope, record: &record)
        case .break: throw LoopSignal.break
        case .continue: throw LoopSignal.continue
        case .try(let block): return try await execute(block, in: &scope, record: &record, frame: frame)
        case .parallel(let parallel): return try await execute(parallel, in: &scope, record: &record, frame: frame)
        }
    }

    /// Evaluates a `limit:` or `count:`: a whole number of 0 or more.
    func limit(_ node: ValueNode, in scope: RunScope) throws -> Int {
        let value = try values.evaluate(node, in: scope)
        guard let number = try? Int(intentValue: value), number >= 0 else {
            throw WorkflowRunError(
                "expected a whole number of 0 or more, got \(value.kindName) '\(value.displayText)'",
                at: node.location, sources: sources)
        }
        return number
    }

    /// The intent a `perform` step names, looked up once per run.
    func intent(_ name: QualifiedName) throws -> IntentCatalog.FoundIntent {
        if let known = intents[name.description] { return known }
        do {
            let found = try runner.catalog.intent(named: name.description)
            intents[name.description] = found
            return found
        } catch {
            throw WorkflowRunError("\(error)", at: name.location, sources: sources)
        }
    }
}

/// Where a list of steps runs: its workflow, its nesting depth in the trace, and the files of
/// the workflows that run this one (to refuse a workflow that runs itself).
struct StepFrame {
    let workflow: Workflow
    let depth: Int
    let callers: [String]

    /// The frame of the steps inside a step (`then:`, `steps:`, a menu option).
    var inside: StepFrame { StepFrame(workflow: workflow, depth: depth + 1, callers: callers) }
}

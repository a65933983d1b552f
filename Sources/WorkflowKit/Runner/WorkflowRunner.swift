import Foundation
import IntentKit
import SpotlightKit

/// Runs a loaded workflow: evaluates values, performs intents (running the intents their
/// results open, unless `openWhenRun: false`), finds and filters entities, follows control
/// flow, searches indexes, asks questions through the ``Interaction``, and records a trace of
/// every step.
///
/// ```swift
/// let workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: "Workflows/add-book.yaml"))
/// let runner = WorkflowRunner(catalog: catalog, interaction: NoInteraction())
/// let result = try await runner.run(workflow, inputs: ["title": .string("Emma")])
/// print(result.output.displayText)
/// ```
public struct WorkflowRunner: Sendable {
    /// The installed apps.
    public var catalog: IntentCatalog
    /// Who answers questions.
    public var interaction: any Interaction
    /// The locale of dialogs.
    public var locale: String
    /// Receives the text of `show` steps and intents' dialogs as they happen.
    public var show: @Sendable (String) -> Void
    /// Where runs and their steps are recorded, if anywhere.
    public var history: RunHistory?
    /// What started the runs, as recorded in the history (`manual`, `automation`).
    public var trigger: String
    /// The search indexes `search` steps use.
    public var searchIndexes: SearchIndexCatalog

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - interaction: Who answers questions.
    ///   - locale: The locale of dialogs.
    ///   - history: Where runs are recorded.
    ///   - trigger: What started the runs.
    ///   - searchIndexes: The search indexes; the apps' indexes and those in `$SHORTCUTS_HOME/indexes` when `nil`.
    ///   - show: Receives shown text.
    public init(catalog: IntentCatalog, interaction: any Interaction = NoInteraction(), locale: String = "en",
                history: RunHistory? = nil, trigger: String = "manual", searchIndexes: SearchIndexCatalog? = nil,
                show: @escaping @Sendable (String) -> Void = { _ in }) {
        self.catalog = catalog
        self.interaction = interaction
        self.locale = locale
        self.history = history
        self.trigger = trigger
        self.searchIndexes = searchIndexes ?? SearchIndexCatalog(intents: catalog)
        self.show = show
    }

    /// Runs a workflow with input values by name.
    ///
    /// - Parameters:
    ///   - workflow: The workflow.
    ///   - inputs: Values for its inputs (text is converted to each input's declared type).
    ///   - runID: The identifier to record the run under in the ``history``, when the caller
    ///     chose it beforehand; a new one by default.
    ///   - isBegun: Whether the caller already recorded the run's start under `runID`
    ///     (``RunHistory/begin(_:trigger:)``), so that only its end is recorded here.
    /// - Returns: The output and the trace.
    /// - Throws: ``WorkflowRunError`` located at the failing step, or ``WorkflowCancelled``.
    public func run(_ workflow: Workflow, inputs: [String: IntentValue] = [:], runID: String? = nil,
                    isBegun: Bool = false) async throws -> WorkflowRunResult {
        let execution = Execution(runner: self)
        let runID = isBegun && runID != nil ? runID : try history?.begin(workflow: workflow, trigger: trigger, id: runID)
        do {
            let output = try await execution.run(workflow, inputs: inputs, depth: 0, callers: [])
            if let runID { try history?.finish(runID, status: .succeeded, output: output, error: nil, steps: execution.trace) }
            return WorkflowRunResult(runID: runID, output: output, steps: execution.trace)
        } catch {
            if let runID {
                let status: RunHistory.Status = error is WorkflowCancelled || Task.isCancelled ? .cancelled : .failed
                let message = (error as? WorkflowRunError)?.rendered() ?? "\(error)"
                try? history?.finish(runID, status: status, output: nil, error: message, steps: execution.trace)
            }
            throw error
        }
    }
}

/// The state of one run: the trace, the sources of the files involved, and the intents found.
private final class Execution: @unchecked Sendable {
    let runner: WorkflowRunner
    var trace: [StepTrace] = []
    var sources: [String: String] = [:]
    var intents: [String: IntentCatalog.FoundIntent] = [:]

    init(runner: WorkflowRunner) {
        self.runner = runner
    }

    struct Stop: Error {
        var output: IntentValue
    }

    func run(_ workflow: Workflow, inputs: [String: IntentValue], depth: Int, callers: [String]) async throws -> IntentValue {
        sources[workflow.fileName] = workflow.sourceText
        let evaluator = ValueEvaluator(sources: sources)
        var scope = RunScope(inputs: try await prepareInputs(workflow, given: inputs, evaluator: evaluator))
        do {
            _ = try await execute(workflow.steps, in: &scope, workflow: workflow, depth: depth, callers: callers)
        } catch let stop as Stop {
            return stop.output
        }
        guard let output = workflow.output else { return .null }
        return try ValueEvaluator(sources: sources).evaluate(output, in: scope)
    }

    private func prepareInputs(_ workflow: Workflow, given: [String: IntentValue], evaluator: ValueEvaluator) async throws -> [String: IntentValue] {
        var values: [String: IntentValue] = [:]
        let empty = RunScope(inputs: [:])
        for name in given.keys where !workflow.inputs.contains(where: { $0.name.value == name }) {
            throw WorkflowRunError(
                "'\(workflow.fileName)' has no input '\(name)'",
                at: SourceLocation(file: workflow.fileName, line: 1, column: 1),
                help: NameSuggestion.nearest(to: name, among: workflow.inputs.map(\.name.value)).map { "did you mean '\($0)'?" }
                    ?? "its inputs are: " + workflow.inputs.map(\.name.value).joined(separator: ", "),
                sources: sources)
        }
        for declaration in workflow.inputs {
            let name = declaration.name.value
            var value = given[name]
            if value == nil, let defaultValue = declaration.defaultValue {
                value = try evaluator.evaluate(defaultValue, in: empty)
            }
            let type = InputTypes.type(named: declaration.type.value, in: runner.catalog)
            if value == nil {
                do {
                    value = try await runner.interaction.requestValue(
                        ValueRequest(name: name, question: declaration.description ?? "What is the \(name)?", type: type ?? .string))
                } catch let error as InteractionError {
                    throw WorkflowRunError("input '\(name)' \(error.description)", at: declaration.name.location, sources: sources)
                }
            }
            guard let value else { continue }
            values[name] = try await convert(value, to: type, name: name, at: declaration.name.location)
        }
        return values
    }

    /// Converts a value to a declared type, resolving entities.
    private func convert(_ value: IntentValue, to type: IntentValueType?, name: String, at location: SourceLocation) async throws -> IntentValue {
        guard let type, type != .any, type != .string || !value.isNull else { return value }
        do {
            let prepared = try await ValuePreparation.prepare(value, for: type, name: name, interaction: runner.interaction)
            return try InputTypes.coerce(prepared, to: type)
        } catch {
            throw WorkflowRunError("'\(name)': \(error)", at: location, sources: sources)
        }
    }

    // MARK: Steps

    func execute(_ steps: [Step], in scope: inout RunScope, workflow: Workflow, depth: Int, callers: [String]) async throws -> IntentValue {
        var last: IntentValue = .null
        for step in steps {
            if Task.isCancelled { throw WorkflowCancelled() }
            let started = Date()
            let clock = ContinuousClock.now
            var record = StepTrace(kind: step.kind.keyword, stepID: step.id?.value, location: step.location, depth: depth,
                                   inputs: [:], output: nil, dialog: nil, startedAt: started, duration: .zero, error: nil)
            // A step with steps inside is traced before them; others are traced once, when done.
            let traceIndex = trace.count
            let containsSteps = step.kind.containsSteps
            if containsSteps { trace.append(record) }
            func finish(_ record: StepTrace) {
                if containsSteps { trace[traceIndex] = record } else { trace.append(record) }
            }
            do {
                let output = try await perform(step, in: &scope, record: &record, workflow: workflow, depth: depth, callers: callers)
                record.duration = ContinuousClock.now - clock
                record.output = output
                finish(record)
                if case .comment = step.kind { continue }
                if let output {
                    if let id = step.id?.value { scope.assign(output, to: id) }
                    scope.previous = output
                    last = output
                }
            } catch let stop as Stop {
                record.duration = ContinuousClock.now - clock
                record.output = stop.output
                finish(record)
                throw stop
            } catch {
                record.duration = ContinuousClock.now - clock
                record.error = (error as? WorkflowRunError)?.diagnostic.message ?? "\(error)"
                finish(record)
                throw error
            }
        }
        return last
    }

    private func perform(_ step: Step, in scope: inout RunScope, record: inout StepTrace, workflow: Workflow,
                         depth: Int, callers: [String]) async throws -> IntentValue? {
        let values = ValueEvaluator(sources: sources)
        let conditions = ConditionEvaluator(values: values)
        switch step.kind {
        case .perform(let perform):
            var arguments: [String: IntentValue] = [:]
            for parameter in perform.parameters {
                arguments[parameter.name.value] = try values.evaluate(parameter.value, in: scope)
            }
            record.inputs = arguments
            let found = try intent(perform.intent)
            let performer = IntentPerformer(catalog: runner.catalog, interaction: runner.interaction, locale: runner.locale,
                                            runsOpenedIntents: perform.opensWhenRun)
            do {
                let outcome = try await performer.perform(found.type, in: found.app, arguments: arguments)
                if outcome.dialog != nil || !outcome.opened.isEmpty {
                    let said = ([outcome.dialog] + outcome.opened.map(\.dialog)).compactMap { $0 }
                    for text in said { runner.show(text) }
                    record.dialog = said.isEmpty ? nil : said.joined(separator: "\n")
                }
                if let snippet = outcome.snippet { runner.show(snippet) }
                return outcome.value ?? .null
            } catch let error as IntentError {
                throw WorkflowRunError(error.description, at: perform.intent.location, sources: sources, cause: error)
            }

        case .find(let find):
            let entity: IntentCatalog.FoundEntity
            do {
                entity = try runner.catalog.entity(named: find.entity.description)
            } catch {
                throw WorkflowRunError("\(error)", at: find.entity.location, sources: sources)
            }
            try await IntentPerformer(catalog: runner.catalog).prepare(entity.app)
            let sorts = find.sortBy.map { PropertySort(property: $0.property.value, order: $0.order == .ascending ? .ascending : .descending) }
            let limit = try find.limit.map { try self.limit($0, values: values, scope: scope) }
            do {
                if let condition = find.condition {
                    if let (mode, flat) = try conditions.flatPropertyConditions(condition, in: scope) {
                        record.inputs = ["conditions": .list(flat.map { .string("\($0.property) \($0.comparator.rawValue) \($0.operands.map(\.displayText).joined(separator: ", "))") })]
                        return .list(try await EntityQueries.find(entity.type, conditions: flat, mode: mode, sortedBy: sorts, limit: limit))
                    }
                    let all = try await EntityQueries.find(entity.type, conditions: [])
                    var kept: [IntentValue] = []
                    for element in all where try conditions.holds(condition, element: element, in: scope) { kept.append(element) }
                    return .list(try EntityQueries.filter(kept, conditions: [], sortedBy: sorts, limit: limit))
                }
                return .list(try await EntityQueries.find(entity.type, conditions: [], sortedBy: sorts, limit: limit))
            } catch let error as EntityQueryError {
                throw WorkflowRunError(error.description, at: step.location, sources: sources)
            } catch let error as ValueConversionError {
                throw WorkflowRunError("find \(entity.name): \(error)", at: step.location, sources: sources)
            }

        case .filter(let filter):
            let list = try values.evaluate(filter.list, in: scope)
            record.inputs = ["list": list]
            var kept: [IntentValue] = []
            for element in list.elements {
                if let condition = filter.condition {
                    if try conditions.holds(condition, element: element, in: scope) { kept.append(element) }
                } else {
                    kept.append(element)
                }
            }
            let sorts = filter.sortBy.map { PropertySort(property: $0.property.value, order: $0.order == .ascending ? .ascending : .descending) }
            let limit = try filter.limit.map { try self.limit($0, values: values, scope: scope) }
            do {
                return .list(try EntityQueries.filter(kept, conditions: [], sortedBy: sorts, limit: limit))
            } catch let error as EntityQueryError {
                throw WorkflowRunError(error.description, at: step.location, sources: sources)
            }

        case .show(let show):
            let text = try values.evaluate(show.value, in: scope).displayText
            runner.show(text)
            record.dialog = text
            return .string(text)

        case .set(let set):
            let value = try values.evaluate(set.value, in: scope)
            scope.assign(value, to: set.variable.value)
            record.inputs = [set.variable.value: value]
            return value

        case .append(let append):
            let value = try values.evaluate(append.value, in: scope)
            let list = (scope[append.variable.value]?.elements ?? []) + [value]
            scope.assign(.list(list), to: append.variable.value)
            record.inputs = [append.variable.value: value]
            return .list(list)

        case .if(let branch):
            let holds = try conditions.holds(branch.condition, element: nil, in: scope)
            record.inputs = ["condition": .bool(holds)]
            return try await execute(holds ? branch.thenSteps : branch.elseSteps, in: &scope, workflow: workflow,
                                     depth: depth + 1, callers: callers)

        case .repeat(let loop):
            var outputs: [IntentValue] = []
            let savedIndex = scope.index
            defer { scope.index = savedIndex }
            switch loop.mode {
            case .count(let node):
                let count = try self.limit(node, values: values, scope: scope)
                record.inputs = ["count": .int(count)]
                for index in 0..<count {
                    scope.index = .int(index + 1)
                    outputs.append(try await execute(loop.steps, in: &scope, workflow: workflow, depth: depth + 1, callers: callers))
                }
            case .each(let node, _):
                let list = try values.evaluate(node, in: scope)
                record.inputs = ["each": list]
                for (index, element) in list.elements.enumerated() {
                    scope.index = .int(index + 1)
                    scope.assign(element, to: loop.itemName)
                    outputs.append(try await execute(loop.steps, in: &scope, workflow: workflow, depth: depth + 1, callers: callers))
                }
            }
            return .list(outputs)

        case .menu(let menu):
            let prompt = try values.evaluate(menu.prompt, in: scope).displayText
            let titles = menu.options.map(\.title.value)
            let choice: Int
            do {
                choice = try await runner.interaction.requestChoice(ChoiceRequest(name: step.id?.value ?? "menu", question: prompt, options: titles))
            } catch let error as InteractionError {
                throw WorkflowRunError(error.description, at: step.location, sources: sources, cause: error)
            }
            record.inputs = ["choice": .string(titles[choice])]
            return try await execute(menu.options[choice].steps, in: &scope, workflow: workflow, depth: depth + 1, callers: callers)

        case .ask(let ask):
            let question = try values.evaluate(ask.question, in: scope).displayText
            let type = ask.answerType.flatMap { InputTypes.type(named: $0.value, in: runner.catalog) } ?? .string
            var answer: IntentValue
            do {
                answer = try await runner.interaction.requestValue(ValueRequest(name: step.id?.value ?? "ask", question: question, type: type))
            } catch let error as InteractionError {
                guard let defaultAnswer = ask.defaultAnswer else {
                    throw WorkflowRunError(error.description, at: step.location, sources: sources, cause: error)
                }
                answer = try values.evaluate(defaultAnswer, in: scope)
            }
            return try await convert(answer, to: type, name: step.id?.value ?? "ask", at: step.location)

        case .run(let nested):
            let url: URL
            do {
                url = try NestedWorkflows.resolve(nested.workflow, from: workflow)
            } catch var error as WorkflowRunError {
                error.sources = sources
                throw error
            }
            let key = url.standardizedFileURL.path
            if callers.contains(key) || key == URL(fileURLWithPath: workflow.fileName).standardizedFileURL.path {
                throw WorkflowRunError("'\(nested.workflow.value)' runs itself (\((callers + [key]).joined(separator: " → ")))",
                                       at: nested.workflow.location, sources: sources)
            }
            let child: Workflow
            do {
                child = try WorkflowLoader.load(contentsOf: url)
            } catch {
                throw WorkflowRunError("'\(nested.workflow.value)' has errors:\n\(error.rendered())", at: nested.workflow.location, sources: sources)
            }
            var inputs: [String: IntentValue] = [:]
            for input in nested.inputs { inputs[input.name.value] = try values.evaluate(input.value, in: scope) }
            record.inputs = inputs
            return try await run(child, inputs: inputs, depth: depth + 1,
                                 callers: callers + [URL(fileURLWithPath: workflow.fileName).standardizedFileURL.path])

        case .wait(let wait):
            do {
                try await Task.sleep(for: wait.duration.value)
            } catch {
                throw WorkflowCancelled()
            }
            return nil

        case .stop(let stop):
            let output = try stop.output.map { try values.evaluate($0, in: scope) } ?? .null
            throw Stop(output: output)

        case .comment:
            return nil

        case .search(let search):
            return try await self.search(search, values: values, scope: scope, record: &record, at: step.location)
        }
    }

    /// Runs a user query; entities stand for their items, other items become dictionaries.
    private func search(_ search: SearchStep, values: ValueEvaluator, scope: RunScope, record: inout StepTrace,
                        at location: SourceLocation) async throws -> IntentValue {
        let query = try values.evaluate(search.query, in: scope)
        let text = query.isNull ? "" : query.displayText
        let limit = try search.limit.map { try self.limit($0, values: values, scope: scope) }
        var entityType: (any IndexedEntity.Type)?
        if let name = search.entity {
            guard let found = try? runner.catalog.entity(named: name.description),
                  let type = found.type as? any IndexedEntity.Type else {
                throw WorkflowRunError("'\(name.description)' is not an indexed entity", at: name.location, sources: sources)
            }
            entityType = type
        } else if let index = search.index, let declared = runner.searchIndexes.appIndex(named: index.value)?.index.entityTypes,
                  declared.count == 1 {
            entityType = declared[0]
        }
        var inputs: [String: IntentValue] = ["query": .string(text)]
        if let index = search.index { inputs["index"] = .string(index.value) }
        if let limit { inputs["limit"] = .int(limit) }
        record.inputs = inputs
        let request = SearchRequest(text: text, indexNames: search.index.map { [$0.value] }, entityType: entityType, limit: limit)
        let response: SearchResponse
        do {
            response = try await runner.searchIndexes.search(request)
        } catch let error as SpotlightError {
            throw WorkflowRunError("search: \(error)", at: search.index?.location ?? location, sources: sources)
        }
        return .list(response.hits.map { hit in hit.entity ?? Self.dictionary(of: hit) })
    }

    /// A found item that stands for no installed entity, as a dictionary of its attributes.
    static func dictionary(of hit: SearchHit) -> IntentValue {
        let attributes = hit.item.attributeSet
        var entries: [String: IntentValue] = ["id": .string(hit.item.uniqueIdentifier), "index": .string(hit.indexName)]
        if let title = attributes.title ?? attributes.displayName { entries["title"] = .string(title) }
        if let description = attributes.contentDescription { entries["description"] = .string(description) }
        if let type = attributes.contentType { entries["contentType"] = .string(type) }
        if let keywords = attributes.keywords { entries["keywords"] = .list(keywords.map(IntentValue.string)) }
        if let domain = hit.item.domainIdentifier { entries["domain"] = .string(domain) }
        if let score = hit.score { entries["score"] = .double(score) }
        return .dictionary(entries)
    }

    private func limit(_ node: ValueNode, values: ValueEvaluator, scope: RunScope) throws -> Int {
        let value = try values.evaluate(node, in: scope)
        guard let number = try? Int(intentValue: value), number >= 0 else {
            throw WorkflowRunError("expected a whole number of 0 or more, got \(value.kindName) '\(value.displayText)'",
                                   at: node.location, sources: sources)
        }
        return number
    }

    private func intent(_ name: QualifiedName) throws -> IntentCatalog.FoundIntent {
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

/// The type names inputs and `ask` answers may declare.
enum InputTypes {
    static func type(named name: String, in catalog: IntentCatalog) -> IntentValueType? {
        var base = name
        var optional = false
        if base.hasSuffix("?") { base.removeLast(); optional = true }
        var list = false
        if base.hasPrefix("["), base.hasSuffix("]") { base = String(base.dropFirst().dropLast()); list = true }
        var type: IntentValueType?
        switch base {
        case "String", "Text": type = .string
        case "Int", "Integer": type = .int
        case "Double", "Number": type = .double
        case "Bool", "Boolean": type = .bool
        case "Date": type = .date
        case "URL": type = .url
        case "File": type = .file
        case "Any": type = .any
        default:
            if let entity = try? catalog.entity(named: base) { type = entity.type.intentValueType }
            for app in catalog.apps {
                if let enumType = app.enums.first(where: { String(describing: $0) == base || app.qualifiedName(ofType: $0) == base }) {
                    type = enumType.intentValueType
                }
            }
        }
        guard var resolved = type else { return nil }
        if list { resolved = .list(resolved) }
        if optional { resolved = .optional(resolved) }
        return resolved
    }

    /// The names accepted as types, for "did you mean" hints.
    static let builtInNames = ["String", "Int", "Double", "Bool", "Date", "URL", "File", "Any"]

    static func coerce(_ value: IntentValue, to type: IntentValueType) throws -> IntentValue {
        switch type {
        case .optional(let wrapped): return value.isNull ? .null : try coerce(value, to: wrapped)
        case .list(let element): return .list(try value.elements.map { try coerce($0, to: element) })
        case .string: return .string(try String(intentValue: value))
        case .int: return .int(try Int(intentValue: value))
        case .double: return .double(try Double(intentValue: value))
        case .bool: return .bool(try Bool(intentValue: value))
        case .date: return .date(try Date(intentValue: value))
        case .url: return .url(try URL(intentValue: value))
        case .uuid: return .string(try UUID(intentValue: value).uuidString)
        case .file: return .file(try IntentFile(intentValue: value))
        case .enumeration(let reference): return try reference.type.init(intentValue: value).intentValue
        case .entity, .any: return value
        }
    }
}

import Foundation
import IntentKit

/// Checks a loaded workflow against the installed apps before anything runs, and reports
/// every mistake at once: unknown intents, parameters, entities, properties, comparators and
/// sort options; variables used before they have a value; values whose type cannot feed a
/// parameter; required parameters nobody could supply in a headless run; nested workflows that
/// run themselves; search steps naming entities that are not indexed or indexes that do not exist;
/// `${secrets.NAME}` naming a secret that is not stored, when it is given the ``secrets`` store.
///
/// ```swift
/// let (diagnostics, sources) = WorkflowValidator(catalog: catalog).check(workflow)
/// if !diagnostics.isEmpty { print(DiagnosticRenderer(sources: sources).render(diagnostics)) }
/// ```
public struct WorkflowValidator: Sendable {
    /// The installed apps.
    public var catalog: IntentCatalog
    /// Whether the run cannot ask questions (automations, `--no-interaction`): required
    /// parameters without a value are then errors.
    public var isHeadless: Bool
    /// Names answered in advance (`--answer name=value`), which count as supplied.
    public var answeredNames: Set<String>
    /// What answers `search` steps: the indexes they may name and the entities they may search.
    public var search: (any WorkflowSearchProvider)?
    /// The store `${secrets.NAME}` reads, to check that each secret exists; `nil` leaves
    /// secrets to be checked when the workflow runs (the environment is always left to then).
    public var secrets: SecretStore?

    /// Creates a validator.
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - isHeadless: Whether the run cannot ask questions.
    ///   - answeredNames: Names answered in advance.
    ///   - search: What answers `search` steps; the one installed with ``WorkflowSearch/bootstrap(_:)`` when `nil`.
    ///   - secrets: The store whose secret names `${secrets.NAME}` must be among; `nil` to not check them.
    public init(
        catalog: IntentCatalog, isHeadless: Bool = true, answeredNames: Set<String> = [],
        search: (any WorkflowSearchProvider)? = nil, secrets: SecretStore? = nil
    ) {
        self.catalog = catalog
        self.isHeadless = isHeadless
        self.answeredNames = answeredNames
        self.search = search ?? WorkflowSearch.provider(for: catalog)
        self.secrets = secrets
    }

    /// Validates a workflow (and the workflows it runs).
    ///
    /// - Parameter workflow: The workflow.
    /// - Returns: The diagnostics, sorted by location; empty when the workflow is valid.
    public func validate(_ workflow: Workflow) -> [Diagnostic] {
        check(workflow).diagnostics
    }

    /// Validates a workflow and returns, with the diagnostics, the sources of every file they
    /// point into (the workflow and the workflows it runs), ready for ``DiagnosticRenderer``.
    ///
    /// - Parameter workflow: The workflow.
    /// - Returns: The sorted diagnostics and the sources by file name.
    public func check(_ workflow: Workflow) -> (diagnostics: [Diagnostic], sources: [String: String]) {
        var pass = ValidationPass(validator: self, workflow: workflow, callers: [])
        pass.run()
        pass.diagnostics += Self.automationDiagnostics(for: workflow, catalog: catalog)
        var sources = [workflow.fileName: workflow.sourceText]
        sources.merge(pass.sources) { first, _ in first }
        return (pass.diagnostics.sorted { $0.location < $1.location }, sources)
    }
}

/// One walk over a workflow with the static types of its variables.
struct ValidationPass {
    let validator: WorkflowValidator
    let workflow: Workflow
    let callers: [String]
    var diagnostics: [Diagnostic] = []
    var sources: [String: String] = [:]
    /// Variables and their static types (`.any` when unknown).
    var scope: [String: IntentValueType] = ["previous": .any, "now": .date]
    var inputTypes: [String: IntentValueType] = [:]
    /// What reflection told about each intent and entity type, asked once per validation.
    let known: KnownTypes

    init(validator: WorkflowValidator, workflow: Workflow, callers: [String], known: KnownTypes = KnownTypes()) {
        self.validator = validator
        self.workflow = workflow
        self.callers = callers
        self.known = known
    }

    /// Intents' parameters and entities' query capabilities, by type, for one validation.
    final class KnownTypes {
        private var parameters: [String: [ParameterDescriptor]] = [:]
        private var capabilities: [EntityTypeReference: EntityQueryCapabilities] = [:]

        func parameters(of intent: IntentCatalog.FoundIntent) -> [ParameterDescriptor] {
            if let known = parameters[intent.name] { return known }
            let found = intent.definition.parameters
            parameters[intent.name] = found
            return found
        }

        func capabilities(of reference: EntityTypeReference) -> EntityQueryCapabilities {
            if let known = capabilities[reference] { return known }
            let found = EntityQueries.capabilities(of: reference)
            capabilities[reference] = found
            return found
        }
    }

    var catalog: IntentCatalog { validator.catalog }

    mutating func report(_ message: String, at location: SourceLocation, help: String? = nil, remedy: Diagnostic.Remedy? = nil) {
        var diagnostic = Diagnostic.error(message, at: location, help: help)
        diagnostic.remedy = remedy
        diagnostics.append(diagnostic)
    }

    static func didYouMean(_ name: String, _ candidates: [String]) -> String? {
        NameSuggestion.nearest(to: name, among: candidates).map { "did you mean '\($0)'?" }
    }

    mutating func run() {
        for input in workflow.inputs {
            let declared = InputTypes.type(named: input.type.value, in: catalog)
            if declared == nil {
                let names = InputTypes.builtInNames + InputTypes.aliases + catalog.allEntities.map(\.name)
                report(
                    "unknown type '\(input.type.value)' for input '\(input.name.value)'", at: input.type.location,
                    help: Self.didYouMean(input.type.value, names) ?? "types: " + InputTypes.builtInNames.joined(separator: ", ")
                        + ", or an entity or enum name")
            }
            inputTypes[input.name.value] = declared ?? .any
            if let defaultValue = input.defaultValue { checkDefault(defaultValue, of: input, declared: declared) }
        }
        scope["input"] = .any
        steps(workflow.steps)
        if let output = workflow.output { _ = type(of: output) }
        if let onFailure = workflow.onFailure { failureSteps(onFailure.value) }
    }

    // MARK: Steps

    mutating func steps(_ steps: [Step]) {
        for step in steps {
            let output = self.step(step)
            if let output {
                scope["previous"] = output
                if let id = step.id?.value { scope[id] = output }
            }
            if step.continueOnError, let id = step.id?.value {
                // `${id.error}`: the error, or null when the step succeeded.
                scope[id] = .optional(scope[id] ?? .any)
                scope[id + ".error"] = .optional(.dictionary(.string))
            }
        }
    }

    mutating func step(_ step: Step) -> IntentValueType? {
        switch step.kind {
        case .perform(let perform): return self.perform(perform)
        case .find(let find): return self.find(find, at: step.location)
        case .filter(let filter):
            let listType = type(of: filter.list)
            let element = listType?.elementType ?? listType.flatMap { $0 == .any ? .any : nil }
            if let listType, listType != .any, listType.elementType == nil {
                report("filter needs a list, but this is \(listType)", at: filter.list.location)
            }
            let entity = element.flatMap(Self.entityType)
            if let condition = filter.condition { self.condition(condition, entity: entity) }
            sorts(filter.sortBy, entity: entity, sortable: nil)
            if let limit = filter.limit { number(limit) }
            return listType ?? .any
        case .show(let show):
            _ = type(of: show.value)
            return .string
        case .set(let set):
            let type = type(of: set.value) ?? .any
            scope[set.variable.value] = type
            return type
        case .append(let append):
            let element = type(of: append.value) ?? .any
            let list = IntentValueType.list(element)
            scope[append.variable.value] = list
            return list
        case .if(let branch):
            condition(branch.condition, entity: nil)
            steps(branch.thenSteps)
            steps(branch.elseSteps)
            return .any
        case .repeat(let loop):
            let saved = scope["index"]
            scope["index"] = .int
            switch loop.mode {
            case .count(let node):
                number(node)
                if case .literal(let literal) = node, let count = Int(literal.text), count > RepeatStep.maximumCount {
                    report(RepeatStep.countProblem(count), at: node.location, help: RepeatStep.countHelp)
                }
            case .each(let node, _):
                let listType = type(of: node)
                scope[loop.itemName] = listType?.elementType ?? .any
                if let concurrency = loop.concurrency { number(concurrency) }
            case .while(let condition): self.condition(condition, entity: nil)
            case .until: break
            }
            steps(loop.steps)
            if case .until(let condition) = loop.mode { self.condition(condition, entity: nil) }
            scope["index"] = saved
            return .list(.any)
        case .menu(let menu):
            _ = type(of: menu.prompt)
            for option in menu.options { steps(option.steps) }
            if validator.isHeadless, !validator.answeredNames.contains(step.id?.value ?? "menu") {
                report(
                    "this menu needs a choice, but the run cannot ask", at: step.location,
                    remedy: .answerInAdvance(name: step.id?.value ?? "menu", placeholder: "OPTION"))
            }
            return .any
        case .ask(let ask):
            if let choices = ask.choices { return choose(from: choices, for: ask, of: step) }
            _ = type(of: ask.question)
            var answerType = IntentValueType.string
            if let declared = ask.answerType {
                if let resolved = InputTypes.type(named: declared.value, in: catalog) {
                    answerType = resolved
                } else {
                    report(
                        "unknown answer type '\(declared.value)'", at: declared.location,
                        help: Self.didYouMean(declared.value, InputTypes.builtInNames))
                }
            }
            if let defaultAnswer = ask.defaultAnswer { _ = type(of: defaultAnswer) }
            let name = step.id?.value ?? "ask"
            if validator.isHeadless, ask.defaultAnswer == nil, !validator.answeredNames.contains(name) {
                report(
                    "this question needs an answer, but the run cannot ask", at: step.location,
                    help: "give it a default:", remedy: .answerInAdvance(name: name, placeholder: "VALUE"))
            }
            return answerType
        case .run(let nested):
            for input in nested.inputs { _ = type(of: input.value) }
            nestedWorkflow(nested)
            return .any
        case .wait, .comment, .break, .continue:
            return nil
        case .stop(let stop):
            if let output = stop.output { _ = type(of: output) }
            return nil
        case .fail(let fail):
            _ = type(of: fail.message)
            if let data = fail.data { _ = type(of: data) }
            return nil
        case .search(let search):
            return self.search(search, at: step.location)
        case .try(let block):
            return tryBlock(block)
        case .parallel(let parallel):
            return self.parallel(parallel)
        }
    }

    mutating func search(_ search: SearchStep, at location: SourceLocation) -> IntentValueType? {
        _ = type(of: search.query)
        if let limit = search.limit { number(limit) }
        guard let provider = validator.search else {
            report("this program cannot search: no search is installed", at: location)
            return .list(.any)
        }
        let indexed = catalog.allEntities.filter { $0.type.map(provider.isSearchable) ?? false }
        var entity: (name: String, type: any AppEntity.Type)?
        if let name = search.entity {
            if let found = try? catalog.entity(named: name.description) {
                if let type = found.type, provider.isSearchable(type) {
                    entity = (found.name, type)
                } else {
                    report(
                        "\(found.name) is not indexed, so it cannot be searched", at: name.location,
                        help: indexed.isEmpty
                            ? "no installed entity is indexed"
                            : "indexed entities: " + indexed.map(\.name).joined(separator: ", "))
                }
            } else {
                report(
                    "unknown entity '\(name.description)'", at: name.location,
                    help: Self.didYouMean(name.description, indexed.map(\.name) + indexed.map(\.reference.name))
                        ?? (indexed.isEmpty ? "no installed entity is indexed" : "indexed entities: " + indexed.map(\.name).joined(separator: ", ")))
            }
        }
        if let index = search.index {
            let names = provider.indexNames
            if !names.contains(index.value) {
                report(
                    "unknown search index '\(index.value)'", at: index.location,
                    help: Self.didYouMean(index.value, names)
                        ?? (names.isEmpty ? "there are no search indexes" : "the indexes are: " + names.joined(separator: ", ")))
            } else if let declared = provider.entityTypes(ofIndexNamed: index.value) {
                if let entity, !declared.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(entity.type) }) {
                    let names = declared.map { type in
                        catalog.allEntities.first { $0.type.map(ObjectIdentifier.init) == ObjectIdentifier(type) }?.name ?? String(describing: type)
                    }
                    report(
                        "the index '\(index.value)' holds no \(entity.name)", at: index.location,
                        help: names.isEmpty ? nil : "it holds " + names.joined(separator: ", "))
                } else if entity == nil, declared.count == 1 {
                    return .list(declared[0].intentValueType)
                }
            }
        }
        return .list(entity?.type.intentValueType ?? .any)
    }

    mutating func perform(_ perform: PerformStep) -> IntentValueType? {
        let found: IntentCatalog.FoundIntent
        do {
            found = try catalog.intent(named: perform.intent.description)
        } catch {
            let names = catalog.allIntents.map(\.name)
            report(
                "unknown intent '\(perform.intent.description)'", at: perform.intent.location,
                help: Self.didYouMean(perform.intent.description, names + catalog.allIntents.map(\.definition.typeName)),
                remedy: .listInstalled("intents"))
            for parameter in perform.parameters { _ = type(of: parameter.value) }
            return .any
        }
        let parameters = known.parameters(of: found)
        for given in perform.parameters {
            let valueType = type(of: given.value)
            guard let parameter = parameters.first(where: { $0.name == given.name.value }) else {
                report(
                    "unknown parameter '\(given.name.value)' for intent '\(found.name)'", at: given.name.location,
                    help: Self.didYouMean(given.name.value, parameters.map(\.name))
                        ?? "its parameters are: " + parameters.map(\.name).joined(separator: ", "))
                continue
            }
            check(given.value, ofType: valueType, feeds: parameter.type, name: "parameter '\(parameter.name)'")
        }
        if let type = found.type { literalProblems(perform, intent: type) }
        for parameter in parameters where parameter.isRequired && !perform.parameters.contains(where: { $0.name.value == parameter.name }) {
            if validator.isHeadless && !validator.answeredNames.contains(parameter.name) {
                report(
                    "missing required parameter '\(parameter.name)' of '\(found.name)', and the run cannot ask for it",
                    at: perform.intent.location, help: "add '\(parameter.name): VALUE' under with:",
                    remedy: .answerInAdvance(name: parameter.name, placeholder: "VALUE"))
            }
        }
        return found.definition.resultShape.valueType ?? .any
    }

    /// Reports what an intent that validates its literal parameters finds wrong in them, at each value.
    mutating func literalProblems(_ perform: PerformStep, intent: any AppIntent.Type) {
        guard let validating = intent as? any ValidatesLiteralParameters.Type else { return }
        var literals: [String: IntentValue] = [:]
        var locations: [String: SourceLocation] = [:]
        for given in perform.parameters {
            guard case .literal(let literal) = given.value else { continue }
            literals[given.name.value] = ValueEvaluator.value(of: literal)
            locations[given.name.value] = given.value.location
        }
        guard !literals.isEmpty else { return }
        for problem in validating.problems(inLiteral: literals) {
            report(problem.message, at: locations[problem.parameter] ?? perform.intent.location, help: problem.help)
        }
    }

    mutating func find(_ find: FindStep, at location: SourceLocation) -> IntentValueType? {
        let entity: IntentCatalog.FoundEntity
        do {
            entity = try catalog.entity(named: find.entity.description)
        } catch {
            report(
                "unknown entity '\(find.entity.description)'", at: find.entity.location,
                help: Self.didYouMean(find.entity.description, catalog.allEntities.map(\.name)),
                remedy: .listInstalled("entities"))
            return .list(.any)
        }
        let capabilities = known.capabilities(of: entity.reference)
        if !capabilities.isFindable {
            report(
                "\(entity.name) cannot be searched by property", at: find.entity.location,
                help: "its query must be an EntityPropertyQuery or an EnumerableEntityQuery")
        }
        if let condition = find.condition {
            self.condition(condition, entity: entity.reference, capabilities: capabilities)
        }
        sorts(find.sortBy, entity: entity.reference, sortable: capabilities.properties.filter(\.isSortable).map(\.name))
        if let limit = find.limit { number(limit) }
        return .list(.entity(entity.reference))
    }

    mutating func sorts(_ sorts: [SortCriterion], entity: EntityTypeReference?, sortable: [String]?) {
        guard let entity else { return }
        let properties = IntentIntrospection.properties(of: entity).map(\.name)
        for sort in sorts {
            if !properties.contains(sort.property.value) {
                report(
                    "\(entity.name) has no property '\(sort.property.value)'", at: sort.property.location,
                    help: Self.didYouMean(sort.property.value, properties))
            } else if let sortable, !sortable.contains(sort.property.value) {
                report(
                    "\(entity.name) cannot be sorted by '\(sort.property.value)'", at: sort.property.location,
                    help: "sortable properties: " + sortable.joined(separator: ", "))
            }
        }
    }

    mutating func condition(
        _ condition: Condition, entity: EntityTypeReference?,
        capabilities: EntityQueryCapabilities? = nil
    ) {
        switch condition {
        case .all(let parts, _), .any(let parts, _):
            for part in parts { self.condition(part, entity: entity, capabilities: capabilities) }
        case .comparison(let comparison):
            switch comparison.subject {
            case .value(let node):
                _ = type(of: node)
            case .property(let name):
                guard let entity else { break }
                let properties = IntentIntrospection.properties(of: entity)
                guard properties.contains(where: { $0.name == name.value }) else {
                    report(
                        "\(entity.name) has no property '\(name.value)'", at: name.location,
                        help: Self.didYouMean(name.value, properties.map(\.name)))
                    break
                }
                if let capabilities, capabilities.supportsPropertyQuery,
                    case let kind = comparison.comparator, kind.takesOperand,
                    let property = capabilities.properties.first(where: { $0.name == name.value }),
                    !property.comparators.contains(kind)
                {
                    let supported = property.comparators.map(\.rawValue)
                    report(
                        "'\(name.value)' of \(entity.name) does not support '\(kind.rawValue)'", at: comparison.location,
                        help: supported.isEmpty ? "'\(name.value)' cannot be queried" : "supported: " + supported.joined(separator: ", "))
                }
            }
            switch comparison.operand {
            case .value(let node): _ = type(of: node)
            case .range(let lower, let upper):
                _ = type(of: lower)
                _ = type(of: upper)
            case .absent: break
            }
        }
    }

    mutating func number(_ node: ValueNode) {
        guard let type = type(of: node) else { return }
        switch type.nonOptional {
        case .int, .any: break
        case .string:
            if case .literal(let literal) = node, Int(literal.text) == nil {
                report("expected a whole number, got '\(literal.text)'", at: node.location)
            }
        default: report("expected a whole number, got \(type)", at: node.location)
        }
    }

    mutating func nestedWorkflow(_ nested: RunStep) {
        let url: URL
        do {
            url = try NestedWorkflows.resolve(nested.workflow, from: workflow)
        } catch let error as WorkflowRunError {
            diagnostics.append(error.diagnostic)
            return
        } catch {
            return
        }
        let key = NestedWorkflows.identity(ofFile: url.path)
        let chain = callers + [NestedWorkflows.identity(ofFile: workflow.fileName)]
        if chain.contains(key) {
            report(
                "'\(nested.workflow.value)' runs itself: "
                    + (chain + [key]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → "),
                at: nested.workflow.location, help: "a workflow cannot run one of the workflows that run it")
            return
        }
        do {
            let child = try WorkflowLoader.load(contentsOf: url)
            var pass = ValidationPass(validator: validator, workflow: child, callers: chain, known: known)
            pass.run()
            sources[child.fileName] = child.sourceText
            sources.merge(pass.sources) { first, _ in first }
            diagnostics += pass.diagnostics
            let declared = child.inputs.map(\.name.value)
            for input in nested.inputs where !declared.contains(input.name.value) {
                report(
                    "'\(nested.workflow.value)' has no input '\(input.name.value)'", at: input.name.location,
                    help: Self.didYouMean(input.name.value, declared) ?? "its inputs are: " + declared.joined(separator: ", "))
            }
        } catch {
            sources.merge(error.sources) { first, _ in first }
            diagnostics += error.diagnostics
        }
    }

    // MARK: Types

    /// The static type of a value, or `nil` after reporting an error in it.
    mutating func type(of node: ValueNode) -> IntentValueType? {
        switch node {
        case .literal(let literal):
            switch ValueEvaluator.value(of: literal) {
            case .null: return .any
            case .bool: return .bool
            case .int: return .int
            case .double: return .double
            case .date: return .date
            default: return .string
            }
        case .expression(let expression):
            return type(of: expression)
        case .template(let template):
            for case .expression(let expression) in template.segments { _ = type(of: expression) }
            return .string
        case .list(let elements, _):
            let types = elements.compactMap { type(of: $0) }
            return .list(Set(types).count == 1 ? types[0] : .any)
        case .mapping(let entries, _):
            for entry in entries { _ = type(of: entry.value) }
            return .any
        }
    }

    mutating func type(of expression: WorkflowExpression) -> IntentValueType? {
        if let tree = expression.tree { return type(of: tree) }
        let name = expression.variable.value
        var components = expression.components[...]
        var current: IntentValueType
        if let root = ReservedRoot(rawValue: name) {
            guard case .property(let variable)? = components.first else {
                report("'\(name)' reads \(root.what) by its name", at: expression.location, help: "write \(root.example)")
                return nil
            }
            components = components.dropFirst()
            if root == .secrets, !secret(variable) { return nil }
            current = .string
        } else if name == "input" {
            guard case .property(let inputName)? = components.first else { return .any }
            components = components.dropFirst()
            guard let inputType = inputTypes[inputName.value] else {
                if workflow.isPartial { return .any }
                report(
                    "'\(workflow.fileName)' declares no input '\(inputName.value)'", at: inputName.location,
                    help: Self.didYouMean(inputName.value, Array(inputTypes.keys)) ?? "declare it under input:")
                return nil
            }
            current = inputType
        } else if case .property(let member)? = components.first, member.value == "error", let failure = scope[name + ".error"] {
            current = failure
            components = components.dropFirst()
        } else if let known = scope[name] {
            current = known
        } else if workflow.isPartial {
            // A step left out for its errors may define it.
            return .any
        } else {
            report(
                "'\(name)' is not defined here", at: expression.variable.location,
                help: Self.didYouMean(name, Array(scope.keys)) ?? "give a step `id: \(name)` or `set: \(name)` before this step")
            return nil
        }
        for component in components {
            switch component {
            case .index:
                current = current.elementType ?? .any
            case .property(let property):
                let member = property.value
                guard case .entity(let reference) = current.nonOptional else {
                    guard let type = memberType(member, of: current, at: property.location) else { return nil }
                    current = type
                    continue
                }
                if member == "id" || member == "title" || member == "subtitle" {
                    current = .string
                } else if let descriptor = IntentIntrospection.properties(of: reference).first(where: { $0.name == member }) {
                    current = descriptor.type
                } else {
                    let names = IntentIntrospection.properties(of: reference).map(\.name)
                    report(
                        "\(reference.name) has no property '\(member)'", at: property.location,
                        help: Self.didYouMean(member, names + ["id", "title"]) ?? "its properties are: " + names.joined(separator: ", "))
                    return nil
                }
            }
        }
        return current
    }

    /// Whether a secret can be read, reporting it when the store is known and it cannot: it is
    /// not stored, or the file cannot be used.
    mutating func secret(_ name: Located<String>) -> Bool {
        guard let snapshot = validator.secrets?.snapshot() else { return true }
        if let problem = snapshot.problem {
            diagnostics.append(RunEnvironment.error(reading: name, problem: problem, sources: [:]).diagnostic)
            return false
        }
        guard snapshot.secrets[name.value] != nil else {
            diagnostics.append(RunEnvironment.unknownSecret(name, stored: snapshot.secrets.keys.sorted(), sources: [:]).diagnostic)
            return false
        }
        return true
    }

    /// Reports a value whose type cannot feed a parameter.
    mutating func check(_ node: ValueNode, ofType valueType: IntentValueType?, feeds parameterType: IntentValueType, name: String) {
        guard let valueType, valueType != .any else { return }
        let target = parameterType.nonOptional
        if case .literal(let literal) = node {
            let value = ValueEvaluator.value(of: literal)
            if value.isNull, parameterType.isOptional { return }
            if case .entity = target { return }
            if target.elementType != nil { return }
            do {
                _ = try ValueCoercion.coerce(value, to: target)
            } catch {
                self.report("\(name) needs \(target): \(error)", at: node.location)
            }
            return
        }
        let source = valueType.nonOptional
        switch (source, target) {
        case (.entity(let a), .entity(let b)) where a != b,
            (.list(.entity(let a)), .entity(let b)) where a == b || a != b:
            report(
                "\(name) needs \(target), but this value is \(valueType)", at: node.location,
                help: source.elementType != nil ? "take one element, such as ${…[0]}, or repeat over the list" : nil)
        case (.list, let single) where single.elementType == nil && single != .string && single != .any:
            report(
                "\(name) needs \(target), but this value is a list (\(valueType))", at: node.location,
                help: "take one element, such as ${…[0]}, or repeat over the list")
        case (.date, .int), (.date, .double), (.date, .bool), (.bool, .date), (.entity, .int), (.entity, .date):
            report("\(name) needs \(target), but this value is \(valueType)", at: node.location)
        default:
            break
        }
    }

    static func entityType(_ type: IntentValueType) -> EntityTypeReference? {
        if case .entity(let reference) = type.nonOptional { return reference }
        return nil
    }
}

import Foundation
import Synchronization

/// What running an intent produced.
public struct PerformOutcome: Sendable {
    /// The intent's full name (`Library.AddBook`).
    public var intentName: String
    /// The returned value.
    public var value: IntentValue?
    /// The dialog, in the run's locale.
    public var dialog: String?
    /// The snippet, drawn as text.
    public var snippet: String?
    /// The intent the result opened, and what it produced, when it was run.
    public var opened: [PerformOutcome]
    /// The intent the result asks to open, when it was not run.
    public var pendingOpenIntent: (any AppIntent)?
    /// The details the intent recorded for the trace with
    /// ``IntentExecution/record(detail:value:)``.
    public var details: [String: IntentValue] = [:]
}

/// Runs intents: makes a fresh instance, assigns and coerces parameter values, resolves
/// entities, asks for missing values, performs, follows `requestValue` re-runs, and runs the
/// intent a result opens.
///
/// ```swift
/// let performer = IntentPerformer(catalog: catalog, interaction: ScriptedInteraction(confirmAll: true))
/// let outcome = try await performer.perform("Library.AddBook", arguments: ["title": .string("Emma")])
/// print(outcome.dialog ?? "")
/// ```
public struct IntentPerformer: Sendable {
    /// The installed apps.
    public var catalog: IntentCatalog
    /// Who answers questions.
    public var interaction: any Interaction
    /// The locale (the apps' strings tables are added per app).
    public var locale: String
    /// Whether an intent a result opens is run after it ("Open When Run").
    public var runsOpenedIntents: Bool
    /// Where the intents record their details: give one to read them after a failure too
    /// (each outcome's ``PerformOutcome/details`` has them after a success). A new log for
    /// each intent when `nil`.
    public var detailLog: IntentDetailLog?

    /// Each app's set-up: running (shared by every caller that comes meanwhile), or done.
    private enum Preparation {
        case running(Task<Void, any Error>)
        case ready
    }

    private static let preparations = Mutex<[String: Preparation]>([:])

    public init(
        catalog: IntentCatalog, interaction: any Interaction = NoInteraction(), locale: String = "en",
        runsOpenedIntents: Bool = true
    ) {
        self.catalog = catalog
        self.interaction = interaction
        self.locale = locale
        self.runsOpenedIntents = runsOpenedIntents
    }

    /// Runs an intent named `App.Intent` (or `Intent`) with parameter values by name.
    ///
    /// - Parameters:
    ///   - name: The intent's name.
    ///   - arguments: Values by parameter name; text is coerced to each parameter's type.
    /// - Returns: What the intent produced.
    /// - Throws: ``IntentError`` naming what to fix.
    public func perform(_ name: String, arguments: [String: IntentValue]) async throws -> PerformOutcome {
        try await perform(try catalog.intent(named: name), arguments: arguments)
    }

    /// Runs an intent found in the catalog, a Swift one or one of a hosted app, with parameter
    /// values by name.
    ///
    /// A hosted intent's values are coerced to the types its metadata declares, entities
    /// resolved through its host (text with ``HostedEntityRequest/Query/matching(_:)``,
    /// identifiers with ``HostedEntityRequest/Query/identifiers(_:)``) and missing required
    /// values asked for, before the host performs it with this performer's interaction.
    ///
    /// - Parameters:
    ///   - intent: The intent, from ``IntentCatalog/intent(named:)``.
    ///   - arguments: Values by parameter name.
    /// - Returns: What the intent produced.
    /// - Throws: ``IntentError`` naming what to fix; `CancellationError` when the task is cancelled.
    public func perform(_ intent: IntentCatalog.FoundIntent, arguments: [String: IntentValue]) async throws -> PerformOutcome {
        switch intent.definition.kind {
        case .swift(let type): try await perform(type, in: intent.app, arguments: arguments)
        case .hosted(let hosted): try await perform(hosted, in: intent.app, arguments: arguments)
        }
    }

    /// Runs an intent type of an app with parameter values by name.
    ///
    /// - Parameters:
    ///   - type: The intent type.
    ///   - app: The app it belongs to.
    ///   - arguments: Values by parameter name.
    /// - Returns: What the intent produced.
    /// - Throws: ``IntentError`` naming what to fix.
    public func perform(_ type: any AppIntent.Type, in app: IntentApp, arguments: [String: IntentValue]) async throws -> PerformOutcome {
        try await prepare(app)
        let intentName = app.qualifiedName(of: type)
        var arguments = arguments
        var answered: Set<String> = []
        while true {
            let (intent, parameters) = IntentReflection.instantiate(type)
            try await assign(arguments, to: parameters.lazy.map(Slot.init), named: intentName)
            do {
                return try await run(intent, in: app, name: intentName)
            } catch let request as ParameterValueRequest {
                guard !answered.contains(request.parameterName) else {
                    throw IntentError.tooManyRequests(intent: intentName, parameter: request.parameterName)
                }
                answered.insert(request.parameterName)
                let answer = try await ask(
                    ValueRequest(name: request.parameterName, question: request.question, type: request.type),
                    intentName: intentName)
                arguments[request.parameterName] = answer
            }
        }
    }

    /// Runs an intent instance whose parameters are already set (an intent a result opens).
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - app: Its app.
    /// - Returns: What the intent produced.
    /// - Throws: ``IntentError``.
    public func perform(instance intent: any AppIntent, in app: IntentApp) async throws -> PerformOutcome {
        try await prepare(app)
        let intentName = app.qualifiedName(of: type(of: intent))
        try await assign([:], to: IntentReflection.parameters(of: intent).map(Slot.init), named: intentName)
        return try await run(intent, in: app, name: intentName)
    }

    /// The localization for an app in this performer's locale.
    public func localization(for app: IntentApp) -> Localization {
        Localization(locale: locale, strings: app.strings)
    }

    /// Runs an app's `setUp` once per process (the performer does it before an app's first intent).
    ///
    /// Callers that come while the set-up runs wait for it, so no intent runs against an app
    /// that is not set up; when the set-up fails, every waiting caller gets its error and the
    /// next caller tries again.
    ///
    /// ```swift
    /// try await IntentPerformer(catalog: catalog).prepare(LibraryApp.app)   // opens the library once
    /// ```
    ///
    /// - Parameter app: The app.
    /// - Throws: The app's set-up error.
    public func prepare(_ app: IntentApp) async throws {
        let running: Task<Void, any Error>? = Self.preparations.withLock { preparations in
            switch preparations[app.name] {
            case .ready:
                return nil
            case .running(let task):
                return task
            case nil:
                let setUp = app.setUp
                let task = Task { try await setUp() }
                preparations[app.name] = .running(task)
                return task
            }
        }
        guard let running else { return }
        do {
            try await running.value
            Self.preparations.withLock { preparations in
                if case .running(let task) = preparations[app.name], task == running { preparations[app.name] = .ready }
            }
        } catch {
            Self.preparations.withLock { preparations in
                if case .running(let task) = preparations[app.name], task == running { preparations[app.name] = nil }
            }
            throw error
        }
    }

    private func run(_ intent: any AppIntent, in app: IntentApp, name: String) async throws -> PerformOutcome {
        let localization = localization(for: app)
        let detailLog = self.detailLog ?? IntentDetailLog()
        let execution = IntentExecution(interaction: interaction, localization: localization, detailLog: detailLog)
        let parts: IntentResultParts
        do {
            parts = try await IntentExecution.$current.withValue(execution) {
                try await Localization.$current.withValue(localization) {
                    try await intent.perform().resultParts
                }
            }
        } catch let request as ParameterValueRequest {
            throw request
        } catch let error as InteractionError {
            throw IntentError.interaction(intent: name, error)
        } catch let error as IntentError {
            throw error
        } catch {
            throw IntentError.performFailed(intent: name, message: Self.message(for: error, in: localization))
        }
        var outcome = PerformOutcome(
            intentName: name, value: parts.value, dialog: nil, snippet: nil, opened: [], pendingOpenIntent: nil, details: detailLog.details)
        if parts.dialog != nil || parts.snippet != nil {
            Localization.$current.withValue(localization) {
                outcome.dialog = parts.dialog.map { $0.full.resolved(in: localization) }
                outcome.snippet = parts.snippet.map { SnippetRenderer.render($0) }
            }
        }
        if let opened = parts.opensIntent {
            if runsOpenedIntents {
                let openedApp = catalog.app(declaring: type(of: opened)) ?? app
                outcome.opened.append(try await perform(instance: opened, in: openedApp))
            } else {
                outcome.pendingOpenIntent = opened
            }
        }
        return outcome
    }

    /// A thrown error's message in a localization.
    public static func message(for error: any Error, in localization: Localization) -> String {
        if let localized = error as? any CustomLocalizedStringResourceConvertible {
            return localized.localizedStringResource.resolved(in: localization)
        }
        return String(describing: error)
    }

    /// A parameter being filled: a Swift intent's `@Parameter` wrapper, or a hosted intent's
    /// described parameter whose values are collected for its host.
    enum Slot {
        case wrapper(IntentReflection.ReflectedParameter)
        case hosted(ParameterDescriptor, into: HostedArguments)

        init(_ parameter: IntentReflection.ReflectedParameter) { self = .wrapper(parameter) }

        var name: String {
            switch self {
            case .wrapper(let parameter): parameter.name
            case .hosted(let parameter, _): parameter.name
            }
        }

        var type: IntentValueType {
            switch self {
            case .wrapper(let parameter): parameter.wrapper.valueType
            case .hosted(let parameter, _): parameter.type
            }
        }

        var title: LocalizedStringResource {
            switch self {
            case .wrapper(let parameter): parameter.wrapper.title
            case .hosted(let parameter, _): parameter.title
            }
        }

        var requestValueDialog: IntentDialog? {
            switch self {
            case .wrapper(let parameter): parameter.wrapper.requestValueDialog
            case .hosted(let parameter, _): parameter.requestValueDialog
            }
        }

        /// Whether the parameter has a value (a default counts).
        var hasValue: Bool {
            switch self {
            case .wrapper(let parameter): parameter.wrapper.hasValue
            case .hosted(let parameter, let values): values.values[parameter.name] != nil
            }
        }

        /// Stores a value (entities already resolved), converting it to the parameter's type.
        func store(_ value: IntentValue) throws {
            switch self {
            case .wrapper(let parameter): try parameter.wrapper.assign(value)
            case .hosted(let parameter, let values): values.values[parameter.name] = try ValueCoercion.coerce(value, to: parameter.type)
            }
        }
    }

    /// The values collected for a hosted intent, its parameters' defaults first.
    final class HostedArguments {
        var values: [String: IntentValue] = [:]

        init(defaults parameters: [ParameterDescriptor]) {
            for parameter in parameters { values[parameter.name] = parameter.defaultValue }
        }
    }

    /// Assigns values by name, then asks for the missing required ones; the slots are made as
    /// they are read, so a Swift intent's run allocates nothing for them.
    func assign(_ arguments: [String: IntentValue], to parameters: some Collection<Slot>, named intentName: String) async throws {
        let isKnown = { (name: String) in parameters.contains { $0.name == name } }
        if !arguments.keys.allSatisfy(isKnown) {
            for name in arguments.keys.sorted() where !isKnown(name) {
                throw IntentError.unknownParameter(
                    intent: intentName, name: name,
                    suggestion: NameSuggestion.nearest(to: name, among: parameters.map(\.name)),
                    known: parameters.map(\.name))
            }
        }
        // Plain values first, so a mistyped number is reported before any entity lookup.
        var entityParameters = 0
        for parameter in parameters {
            if parameter.type.refersToEntities {
                entityParameters += 1
            } else if let value = arguments[parameter.name] {
                do {
                    try parameter.store(value)
                } catch let error as ValueConversionError {
                    throw IntentError.invalidValue(intent: intentName, parameter: parameter.name, reason: error.description)
                }
            } else if !parameter.hasValue && !parameter.type.isOptional {
                try await fill(parameter, with: nil, intentName: intentName)
            }
        }
        guard entityParameters > 0 else { return }
        for parameter in parameters where parameter.type.refersToEntities {
            try await fill(parameter, with: arguments[parameter.name], intentName: intentName)
        }
    }

    /// Assigns a given value, or asks for a missing non-optional one.
    private func fill(_ parameter: Slot, with given: IntentValue?, intentName: String) async throws {
        if let value = given {
            try await assign(value, to: parameter, intentName: intentName)
        } else if !parameter.hasValue && !parameter.type.isOptional {
            let type = parameter.type
            let question = QuestionText.valueQuestion(dialog: parameter.requestValueDialog, title: parameter.title, type: type)
            let answer = try await ask(
                ValueRequest(name: parameter.name, question: question, type: type, suggestions: await suggestions(for: type)),
                intentName: intentName)
            try await assign(answer, to: parameter, intentName: intentName)
        }
    }

    private func ask(_ request: ValueRequest, intentName: String) async throws -> IntentValue {
        do {
            return try await interaction.requestValue(request)
        } catch let error as InteractionError {
            throw IntentError.interaction(intent: intentName, error)
        }
    }

    private func assign(_ value: IntentValue, to parameter: Slot, intentName: String) async throws {
        do {
            let type = parameter.type
            if type.refersToEntities {
                try parameter.store(try await ValuePreparation.prepare(value, for: type, name: parameter.name, interaction: interaction))
            } else {
                try parameter.store(value)
            }
        } catch let error as ValueConversionError {
            throw IntentError.invalidValue(intent: intentName, parameter: parameter.name, reason: error.description)
        } catch let error as InteractionError {
            throw IntentError.interaction(intent: intentName, error)
        } catch let error where error is IntentError || error is CancellationError {
            throw error
        } catch {
            // An entity query failed while resolving the value.
            throw IntentError.performFailed(intent: intentName, message: Self.message(for: error, in: Localization.current))
        }
    }

    private func suggestions(for type: IntentValueType) async -> [String] {
        switch type.nonOptional {
        case .enumeration(let reference):
            switch reference.definition {
            case .swift(let type): return type.allCaseTitles
            case .hosted(let hosted): return hosted.metadata.cases.map(\.title)
            }
        case .entity(let reference):
            switch reference.definition {
            case .swift(let type): return await Self.suggestedTitles(of: type)
            case .hosted(let hosted): return ((try? await hosted.entities(.suggested)) ?? []).prefix(20).map(\.title)
            }
        default:
            return []
        }
    }

    /// The titles of an entity type's suggested entities (all of an enumerable type's), at most 20.
    private static func suggestedTitles<Entity: AppEntity>(of type: Entity.Type) async -> [String] {
        var entities = (try? await Entity.defaultQuery.suggestedEntities()) ?? []
        if entities.isEmpty, let enumerable = Entity.defaultQuery as? any EnumerableEntityQuery {
            entities = (try? await EntityResolver.all(of: enumerable, as: Entity.self)) ?? []
        }
        return entities.prefix(20).map { $0.displayRepresentation.title.description }
    }
}

extension AppEnum {
    /// The titles of every case, in the current locale.
    static var allCaseTitles: [String] { allCases.map { $0.localizedTitle.description } }
}

/// Prepares a value for a type: resolves entities (elements of lists too) and leaves other
/// conversions to ``IntentValueConvertible/init(intentValue:)``.
package enum ValuePreparation {
    /// Resolves the entities in a value for a parameter or property of a type.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - type: The type it must become.
    ///   - name: The name a disambiguation is asked under.
    ///   - interaction: Who chooses among several matching entities.
    /// - Returns: The value with entities resolved.
    /// - Throws: ``IntentError`` or ``ValueConversionError``.
    package static func prepare(
        _ value: IntentValue, for type: IntentValueType, name: String,
        interaction: any Interaction
    ) async throws -> IntentValue {
        switch type {
        case .optional(let wrapped):
            return value.isNull ? .null : try await prepare(value, for: wrapped, name: name, interaction: interaction)
        case .list(let element):
            var prepared: [IntentValue] = []
            for item in value.elements {
                prepared.append(try await prepare(item, for: element, name: name, interaction: interaction))
            }
            return .list(prepared)
        case .entity(let reference):
            return try await EntityResolver.resolve(value, as: reference, name: name, interaction: interaction)
        default:
            return value
        }
    }
}

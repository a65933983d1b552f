import Foundation

/// Performs the intents and answers the entity queries of an app whose code runs outside the
/// engine's process: an extension speaking the extension protocol, or an MCP server.
///
/// The engine knows such an app from its metadata (``AppMetadata/App``, the shape
/// `shortcuts metadata` prints) and asks its host whenever one of its intents runs or one of
/// its entity types is queried. Parameter values arrive checked against the metadata: coerced
/// to each parameter's type, entities resolved to ``EntityValue``s, enum cases as
/// ``EnumCaseValue``s.
///
/// A host must end its work when the calling task is cancelled (a step's timeout, a cancelled
/// run) and throw `CancellationError`, and must fail with an error that says what happened
/// when its process ends or misbehaves: the engine reports it as the step's failure.
///
/// ```swift
/// struct EchoHost: IntentHost {
///     func perform(_ request: HostedIntentRequest) async throws -> HostedIntentResult {
///         HostedIntentResult(value: request.arguments["text"], dialog: "Echoed")
///     }
///     func entities(_ request: HostedEntityRequest) async throws -> [EntityValue] { [] }
/// }
/// ```
public protocol IntentHost: Sendable {
    /// Performs one of the app's intents.
    ///
    /// - Parameter request: The intent, its checked parameter values, the locale and who
    ///   answers the questions the intent asks while it runs.
    /// - Returns: What the intent produced.
    /// - Throws: An error whose description names the app and what went wrong.
    func perform(_ request: HostedIntentRequest) async throws -> HostedIntentResult

    /// Answers a query over one of the app's entity types.
    ///
    /// - Parameter request: The entity type and the query.
    /// - Returns: The entities found, in the host's order.
    /// - Throws: An error whose description names the app and what went wrong.
    func entities(_ request: HostedEntityRequest) async throws -> [EntityValue]

    /// Starts what the host needs to answer (its process, a handshake) without waiting, ahead of
    /// its first request: a run calls it as it begins for the hosts its steps name, so a start-up
    /// overlaps the steps before. A start that fails shows at the first request instead. The
    /// default does nothing.
    func prepare()
}

extension IntentHost {
    public func prepare() {}
}

/// One intent to perform in an ``IntentHost``.
public struct HostedIntentRequest: Sendable {
    /// The app's name (`Greeter`).
    public var app: String
    /// The intent's name within its app (`Greet`).
    public var intent: String
    /// The parameter values by name, converted to the parameters' types.
    public var arguments: [String: IntentValue]
    /// The locale to speak, such as `en` or `ja`.
    public var locale: String
    /// Who answers the questions the intent asks while it runs.
    public var interaction: any Interaction

    /// Creates a request.
    public init(app: String, intent: String, arguments: [String: IntentValue], locale: String, interaction: any Interaction) {
        self.app = app
        self.intent = intent
        self.arguments = arguments
        self.locale = locale
        self.interaction = interaction
    }
}

/// What a hosted intent produced.
public struct HostedIntentResult: Sendable {
    /// The returned value.
    public var value: IntentValue?
    /// The dialog, already in the request's locale.
    public var dialog: String?
    /// The snippet, drawn as text.
    public var snippet: String?
    /// The intent the result asks to open, with its parameter values.
    public var opensIntent: HostedOpenIntent?
    /// Details for the run's trace (as ``IntentExecution/record(detail:value:)`` records them).
    public var details: [String: IntentValue]

    /// Creates a result.
    public init(
        value: IntentValue? = nil, dialog: String? = nil, snippet: String? = nil, opensIntent: HostedOpenIntent? = nil,
        details: [String: IntentValue] = [:]
    ) {
        self.value = value
        self.dialog = dialog
        self.snippet = snippet
        self.opensIntent = opensIntent
        self.details = details
    }
}

/// An intent a hosted intent's result opens: another intent of the same app.
public struct HostedOpenIntent: Sendable {
    /// The intent's name within the app.
    public var intent: String
    /// Its parameter values by name.
    public var arguments: [String: IntentValue]

    /// Creates an open-intent.
    public init(intent: String, arguments: [String: IntentValue]) {
        self.intent = intent
        self.arguments = arguments
    }
}

/// A query over one entity type of an ``IntentHost``'s app.
public struct HostedEntityRequest: Sendable {
    /// What is asked.
    public enum Query: Sendable, Hashable {
        /// The entities with these identifiers (those that exist, in any order).
        case identifiers([String])
        /// The entities that match a string, as the entity's string query does.
        case matching(String)
        /// The entities worth suggesting when a value is asked for.
        case suggested
        /// The entities whose properties meet conditions, with the comparators the entity's
        /// property query declares, sorted and limited.
        case properties(conditions: [PropertyCondition], mode: ComparatorMode, sort: [PropertySort], limit: Int?)
    }

    /// The app's name.
    public var app: String
    /// The entity type's name within its app (`BookEntity`).
    public var entity: String
    /// What is asked.
    public var query: Query
    /// The locale to speak.
    public var locale: String

    /// Creates a request.
    public init(app: String, entity: String, query: Query, locale: String) {
        self.app = app
        self.entity = entity
        self.query = query
        self.locale = locale
    }
}

import Clockwork
import Foundation
import IntentKit
import Synchronization

/// Performs the intents and answers the entity queries of an extension: a program that speaks
/// the extension protocol on its standard input and output.
///
/// Nothing runs until the first request: then `EXECUTABLE extension serve` starts, is asked
/// `initialize`, and stays up for the next requests (they may overlap) until it has been idle
/// for ``Configuration/idleTimeout`` or the engine exits. A crash, a protocol error or an
/// extension that ignores a cancellation fails the requests it was serving with what happened,
/// and the next request starts it again.
///
/// Each call is counted and timed (``ExtensionMetric``) with the swift-metrics factory in force
/// when the host was created.
///
/// ```swift
/// let host = ExtensionHost(name: "Greeter", executable: "/usr/local/bin/greeter", metadata: metadata)
/// let result = try await host.perform(
///     HostedIntentRequest(app: "Greeter", intent: "Greet", arguments: ["name": "Ada"], locale: "en", interaction: NoInteraction()))
/// result.dialog   // "Hi Ada!"
/// ```
public final class ExtensionHost: IntentHost {
    /// How the host runs its extension.
    public struct Configuration: Sendable {
        /// How long the extension may stay up without requests (`nil`: until the engine exits).
        public var idleTimeout: Duration?
        /// How long a cancelled request's extension has to answer before it is ended.
        public var cancellationGrace: Duration
        /// How long the extension has to answer `initialize`.
        public var startTimeout: Duration
        /// The extension's environment.
        public var environment: [String: String]
        /// The engine's version, as `initialize` tells the extension.
        public var engineVersion: String
        /// The clock of the idle and start timeouts and of the calls' durations.
        public var clock: any EngineClock

        /// Creates a configuration: by default no idle timeout, 2 s of grace, 10 s to start,
        /// by the real clock.
        ///
        /// ```swift
        /// let configuration = ExtensionHost.Configuration(idleTimeout: .seconds(60), clock: .system)
        /// ```
        public init(
            idleTimeout: Duration? = nil, cancellationGrace: Duration = .seconds(2), startTimeout: Duration = .seconds(10),
            environment: [String: String] = ProcessInfo.processInfo.environment, engineVersion: String = "0.1.0",
            clock: any EngineClock = .system
        ) {
            self.engineVersion = engineVersion
            self.clock = clock
            self.idleTimeout = idleTimeout
            self.cancellationGrace = cancellationGrace
            self.startTimeout = startTimeout
            self.environment = environment
        }
    }

    /// The extension's name, as errors and the log show it.
    public let name: String
    /// The extension's program.
    public let executable: String
    /// The apps the extension declares.
    public let apps: [AppMetadata.App]
    private let configuration: Configuration
    private let idleTimeoutSetting: Mutex<Duration?>
    private let values: [String: HostedValues]
    private let state = Mutex(State())
    private let metrics: ExtensionMetrics

    private struct State {
        var connection: ExtensionConnection?
        var starting: Task<ExtensionConnection, any Error>?
        var inFlight = 0
        /// When the last request ended, by the configuration's clock.
        var lastUse = Date.distantPast
        var idleWatcherRunning = false
        var askers: [Int: Asker] = [:]
    }

    /// Who answers the questions of one running perform, and the question it could not answer.
    private struct Asker {
        var interaction: any Interaction
        var failure: (any Error)?
    }

    /// Creates the host of an extension from its metadata; nothing is started.
    ///
    /// - Parameters:
    ///   - name: The extension's name.
    ///   - executable: Its program's absolute path.
    ///   - metadata: What it declared in `initialize`.
    ///   - configuration: Idle timeout, grace period, environment.
    public init(name: String, executable: String, metadata: AppMetadata, configuration: Configuration = Configuration()) {
        self.name = name
        self.executable = executable
        self.apps = metadata.apps
        self.configuration = configuration
        idleTimeoutSetting = Mutex(configuration.idleTimeout)
        values = Dictionary(metadata.apps.map { ($0.name, HostedValues(app: $0)) }) { first, _ in first }
        metrics = ExtensionMetrics(extension: name, clock: configuration.clock)
    }

    /// How long the extension may stay up without requests (`nil`: until the engine exits);
    /// a change applies from the next request on.
    public var idleTimeout: Duration? {
        get { idleTimeoutSetting.withLock { $0 } }
        set { idleTimeoutSetting.withLock { $0 = newValue } }
    }

    /// The running extension's process id, or `nil` when it is not running.
    public var processIdentifier: Int32? {
        state.withLock { state in state.connection.flatMap { $0.isClosed ? nil : $0.pid } }
    }

    // MARK: IntentHost

    public func perform(_ request: HostedIntentRequest) async throws -> HostedIntentResult {
        try await metrics.measure { try await performCall(request) }
    }

    public func entities(_ request: HostedEntityRequest) async throws -> [EntityValue] {
        try await metrics.measure { try await entitiesCall(request) }
    }

    private func performCall(_ request: HostedIntentRequest) async throws -> HostedIntentResult {
        let values = try appValues(request.app)
        let intentName = HostedValues.shortName(request.intent, app: request.app)
        let intent = values.intent(named: intentName)
        let connection = try await begin()
        defer { end() }
        let id = connection.reserveID()
        state.withLock { $0.askers[id] = Asker(interaction: request.interaction) }
        defer { _ = state.withLock { $0.askers.removeValue(forKey: id) } }
        var arguments: [String: JSONValue] = [:]
        for (key, value) in request.arguments { arguments[key] = values.json(from: value) }
        let parameters: JSONValue = [
            "app": .string(request.app), "intent": .string(intentName), "arguments": .object(arguments), "locale": .string(request.locale)
        ]
        let result: JSONValue
        do {
            result = try await connection.request("intents/perform", parameters, activity: "performing \(intentName)", id: id)
        } catch {
            if let failure = state.withLock({ $0.askers[id]?.failure }) { throw failure }
            throw error
        }
        var opened: HostedOpenIntent?
        if let opens = result["opensIntent"], let target = opens["intent"]?.stringValue {
            let targetName = HostedValues.shortName(target, app: request.app)
            let parameters = values.intent(named: targetName)?.parameters ?? []
            var arguments: [String: IntentValue] = [:]
            for (key, value) in opens["arguments"]?.objectValue ?? [:] {
                arguments[key] = values.value(from: value, type: parameters.first { $0.name == key }?.type)
            }
            opened = HostedOpenIntent(intent: targetName, arguments: arguments)
        }
        let value = result["value"].map { values.value(from: $0, type: intent?.result.valueType) }
        return HostedIntentResult(
            value: value?.isNull == true ? nil : value, dialog: result["dialog"]?.stringValue, snippet: result["snippet"]?.stringValue,
            opensIntent: opened, details: (result["details"]?.objectValue ?? [:]).mapValues(values.untyped))
    }

    private func entitiesCall(_ request: HostedEntityRequest) async throws -> [EntityValue] {
        let values = try appValues(request.app)
        let entity = HostedValues.shortName(request.entity, app: request.app)
        var parameters: [String: JSONValue] = ["app": .string(request.app), "entity": .string(entity), "locale": .string(request.locale)]
        let method: String
        let activity: String
        switch request.query {
        case .identifiers(let identifiers):
            method = "entities/byIdentifiers"
            activity = "looking up \(entity) by identifier"
            parameters["identifiers"] = .array(identifiers.map(JSONValue.string))
        case .matching(let text):
            method = "entities/matching"
            activity = "searching \(entity)"
            parameters["query"] = .string(text)
        case .suggested:
            method = "entities/suggested"
            activity = "suggesting \(entity)"
        case .properties(let conditions, let mode, let sort, let limit):
            method = "entities/query"
            activity = "finding \(entity)"
            parameters["conditions"] = .array(
                conditions.map {
                    [
                        "property": .string($0.property), "comparator": .string($0.comparator.rawValue),
                        "operands": .array($0.operands.map(values.json(from:)))
                    ]
                })
            parameters["mode"] = .string(mode.rawValue)
            parameters["sort"] = .array(sort.map { ["property": .string($0.property), "order": .string($0.order.rawValue)] })
            parameters["limit"] = limit.map(JSONValue.int) ?? .null
        }
        let connection = try await begin()
        defer { end() }
        let result = try await connection.request(method, .object(parameters), activity: activity)
        guard let list = result["entities"]?.arrayValue else {
            throw ExtensionError.protocolViolation(extension: name, reason: "answered \(method) without an \"entities\" list")
        }
        return list.compactMap { values.entityValue(from: $0, entity: entity) }
    }

    /// Starts the extension in the background when it is not running, as a request would (its
    /// idle timeout counts from then); a start that fails is tried again by the first request.
    public func prepare() {
        Task {
            guard (try? await begin()) != nil else { return }
            end()
        }
    }

    /// Stops the extension if it runs (`shutdown`, then `SIGTERM` and `SIGKILL`).
    public func stop() async {
        let connection = state.withLock { state -> ExtensionConnection? in
            defer { state.connection = nil }
            return state.connection
        }
        await connection?.shutdown()
    }

    // MARK: Lifecycle

    private func appValues(_ app: String) throws -> HostedValues {
        guard let values = values[app] else {
            throw ExtensionError.failed(extension: name, message: "extension \(name) has no app named \(app)")
        }
        return values
    }

    /// The running connection, started (once, for concurrent callers) when there is none.
    private func begin() async throws -> ExtensionConnection {
        let (ready, starting) = state.withLock { state -> (ExtensionConnection?, Task<ExtensionConnection, any Error>?) in
            state.inFlight += 1
            if let connection = state.connection, !connection.isClosed { return (connection, nil) }
            if let starting = state.starting { return (nil, starting) }
            let task = Task { try await self.start() }
            state.starting = task
            return (nil, task)
        }
        if let ready { return ready }
        do {
            let connection = try await Self.value(of: starting!)
            state.withLock { state in
                if state.starting == starting { state.starting = nil }
                if state.connection == nil || state.connection!.isClosed { state.connection = connection }
            }
            try Task.checkCancellation()
            return connection
        } catch {
            state.withLock { state in
                if state.starting == starting { state.starting = nil }
            }
            end()
            throw error
        }
    }

    /// The start's outcome, or `CancellationError` as soon as the caller is cancelled (the
    /// start goes on for the other callers).
    private static func value(of start: Task<ExtensionConnection, any Error>) async throws -> ExtensionConnection {
        let outcome = FirstOutcome<ExtensionConnection>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(with: continuation)
                Task { outcome.resume(with: await start.result) }
            }
        } onCancel: {
            outcome.resume(with: .failure(CancellationError()))
        }
    }

    private func start() async throws -> ExtensionConnection {
        let connection = try ExtensionConnection.start(
            name: name, executable: executable, environment: configuration.environment, handlers: handlers(),
            cancellationGrace: configuration.cancellationGrace, clock: configuration.clock)
        do {
            _ = try await Self.initialize(connection, configuration: configuration)
            return connection
        } catch {
            connection.close(error as? ExtensionError ?? .stopped(extension: name))
            throw error
        }
    }

    private func end() {
        let timeout = idleTimeout
        let now = configuration.clock.now()
        let watch = state.withLock { state -> Bool in
            state.inFlight -= 1
            state.lastUse = now
            guard state.inFlight == 0, timeout != nil, !state.idleWatcherRunning, state.connection != nil else { return false }
            state.idleWatcherRunning = true
            return true
        }
        if watch, let timeout { watchIdleness(timeout) }
    }

    /// Stops the extension once it has been idle for `timeout` by the configuration's clock,
    /// unless a request comes first.
    private func watchIdleness(_ timeout: Duration) {
        let clock = configuration.clock
        Task.detached { [weak self] in
            while true {
                guard let self else { return }
                let due = self.state.withLock { $0.lastUse.adding(timeout) }
                try? await clock.sleep(until: due)
                let now = clock.now()
                enum Decision {
                    case stop(ExtensionConnection?)
                    case wait
                    case leave
                }
                let decision = self.state.withLock { state -> Decision in
                    if state.inFlight > 0 {
                        state.idleWatcherRunning = false
                        return .leave
                    }
                    guard now >= state.lastUse.adding(timeout) else { return .wait }
                    state.idleWatcherRunning = false
                    defer { state.connection = nil }
                    return .stop(state.connection)
                }
                switch decision {
                case .wait: continue
                case .leave: return
                case .stop(let connection):
                    if let connection, !connection.isClosed {
                        ExtensionLog.logger.debug("\(self.name): idle for \(timeout), stopping", metadata: ["extension": .string(self.name)])
                        await connection.shutdown()
                    }
                    return
                }
            }
        }
    }

    /// Asks `initialize` and checks the protocol version; fails past the configuration's
    /// start timeout, by its clock.
    static func initialize(_ connection: ExtensionConnection, configuration: Configuration) async throws -> AppMetadata {
        let name = connection.name
        let timeout = configuration.startTimeout
        let clock = configuration.clock
        let parameters: JSONValue = [
            "protocolVersions": .array(ExtensionConnection.protocolVersions.map(JSONValue.int)), "locale": "en",
            "engine": ["name": "shortcuts", "version": .string(configuration.engineVersion)]
        ]
        let answer = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            group.addTask { try await connection.request("initialize", parameters, activity: "starting") }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
        guard let answer else {
            connection.close(.noAnswer(extension: name, method: "initialize", timeout: timeout))
            throw ExtensionError.noAnswer(extension: name, method: "initialize", timeout: timeout)
        }
        guard let version = answer["protocolVersion"]?.intValue, ExtensionConnection.protocolVersions.contains(version) else {
            throw ExtensionError.unsupportedVersion(extension: name, supported: answer["protocolVersion"]?.intValue.map { [$0] } ?? [])
        }
        guard let metadata = answer["metadata"] else {
            throw ExtensionError.protocolViolation(extension: name, reason: "answered initialize without metadata")
        }
        do {
            return try JSONDecoder().decode(AppMetadata.self, from: Data(metadata.text.utf8))
        } catch {
            throw ExtensionError.protocolViolation(extension: name, reason: "answered initialize with metadata that cannot be read: \(error)")
        }
    }

    // MARK: The extension's requests

    private func handlers() -> ExtensionConnection.Handlers {
        ExtensionConnection.Handlers(
            request: { [weak self] method, parameters in
                guard let self else { throw ExtensionConnection.RemoteError(code: -32603, message: "the engine is stopping") }
                return try await self.answer(method, parameters)
            },
            notification: { [name] method, parameters in
                guard method == "progress" else { return }
                let completed = parameters["completed"]?.intValue ?? 0
                let total = parameters["total"]?.intValue.map { "/\($0)" } ?? ""
                let message = parameters["message"]?.stringValue.map { " \($0)" } ?? ""
                ExtensionLog.logger.debug("\(name): progress \(completed)\(total)\(message)", metadata: ["extension": .string(name)])
            })
    }

    private func answer(_ method: String, _ parameters: JSONValue) async throws -> JSONValue {
        guard method.hasPrefix("interaction/") else {
            throw ExtensionConnection.RemoteError(code: -32601, message: "method not found: \(method)")
        }
        guard let requestID = parameters["requestId"]?.intValue, let asker = state.withLock({ $0.askers[requestID] }) else {
            throw ExtensionConnection.RemoteError(code: -32602, message: "\(method) needs the requestId of a running intents/perform")
        }
        let name = parameters["name"]?.stringValue ?? "value"
        let question = parameters["question"]?.stringValue ?? name
        do {
            switch method {
            case "interaction/requestValue":
                let value = try await asker.interaction.requestValue(
                    ValueRequest(
                        name: name, question: question, type: HostedValues.questionType(parameters["type"]?.stringValue),
                        suggestions: parameters["suggestions"]?.arrayValue?.compactMap(\.stringValue) ?? []))
                return ["value": HostedValues.json(from: value)]
            case "interaction/requestDisambiguation":
                let options = parameters["options"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let index = try await asker.interaction.requestChoice(ChoiceRequest(name: name, question: question, options: options))
                return ["index": .int(index)]
            case "interaction/requestConfirmation":
                let confirmed = try await asker.interaction.requestConfirmation(
                    ConfirmationRequest(name: name, question: question, preview: parameters["preview"]?.stringValue))
                return ["confirmed": .bool(confirmed)]
            default:
                throw ExtensionConnection.RemoteError(code: -32601, message: "method not found: \(method)")
            }
        } catch let error as ExtensionConnection.RemoteError {
            throw error
        } catch {
            state.withLock { $0.askers[requestID]?.failure = error }
            if case InteractionError.cannotAsk = error {
                throw ExtensionConnection.RemoteError(
                    code: -32003, message: "cannot ask: \(question)", data: ["question": .string(question), "name": .string(name)])
            }
            throw ExtensionConnection.RemoteError(code: -32000, message: "\(error)")
        }
    }
}

/// Resumes a continuation with the first outcome it is given; later ones are dropped.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var done = false
    }

    private let state = Mutex(State())

    func wait(with continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.done else { return nil }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}

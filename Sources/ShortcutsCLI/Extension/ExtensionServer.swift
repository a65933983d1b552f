import Clockwork
import Foundation
import IntentKit
import Synchronization

/// Serves the extension protocol for a tool's apps on its standard input and output: the
/// engine asks for the apps' metadata, performs their intents and queries their entities, and
/// answers the questions the intents ask.
///
/// Each request runs on a task of its own, so requests overlap; every message is written as
/// one line, one at a time. `Schemas/extension-protocol.md` describes the protocol.
///
/// ```swift
/// let server = ExtensionServer(catalog: catalog, streams: try ProtocolStreams.takeOver(), name: "greeter", version: "1.0")
/// await server.serve()   // returns after `shutdown`, or when standard input ends
/// ```
final class ExtensionServer: Sendable {
    /// The protocol versions this side speaks.
    static let protocolVersions = [1]

    /// The apps served.
    let catalog: IntentCatalog
    let streams: ProtocolStreams
    /// The tool's name and version, told in `initialize`'s result.
    let toolName: String
    let toolVersion: String

    private struct State {
        /// Requests being served, by id.
        var inFlight: [IntentValue: Task<Void, Never>] = [:]
        /// Requests `$/cancel` named: answered as cancelled whatever they produce.
        var cancelled: Set<IntentValue> = []
        /// Requests sent to the engine and not answered yet, by id.
        var pending: [Int: CheckedContinuation<IntentValue, any Error>] = [:]
        var nextRequestID = 1
        /// The locale `initialize` gave, for requests that give none.
        var locale = "en"
        var isShuttingDown = false
        var inputEnded = false
        var finished = false
        var whenFinished: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// What the time intents get to stop after the input ends is measured by.
    private let clock: any EngineClock = TaskClock.current
    private let writing = Mutex(())

    init(catalog: IntentCatalog, streams: ProtocolStreams, name: String, version: String) {
        self.catalog = catalog
        self.streams = streams
        self.toolName = name
        self.toolVersion = version
    }

    /// Serves until `shutdown` was answered and the requests in flight ended, or until the
    /// input ends (requests still running are then cancelled and given two seconds).
    func serve() async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.whenFinished = continuation }
            let reader = Thread { [self] in
                streams.readLines { line in receive(line) }
                inputEnded()
            }
            reader.start()
        }
    }

    // MARK: Reading

    private func receive(_ line: Data) {
        guard line.contains(where: { !Self.isBlank($0) }) else { return }
        let message: ProtocolMessage
        do {
            message = try ProtocolMessage(line: line)
        } catch {
            send(.error(id: error.id, error.error))
            return
        }
        switch message {
        case .request(let id, let method, let params):
            start(id: id, method: method, params: params)
        case .notification(let method, let params):
            if method == "$/cancel", let id = params.members["id"] { cancel(id) }
        case .response(let id, let outcome):
            let continuation: CheckedContinuation<IntentValue, any Error>? = state.withLock { state in
                guard case .int(let number) = id else { return nil }
                return state.pending.removeValue(forKey: number)
            }
            guard let continuation else {
                log("warning", "ignored an answer to request \(id.jsonText), which is not waiting for one")
                return
            }
            continuation.resume(with: outcome.mapError { $0 as any Error })
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private func start(id: IntentValue, method: String, params: ProtocolParams) {
        if method == "shutdown" {
            send(.result(id: id, IntentValue.null))
            state.withLock { $0.isShuttingDown = true }
            finishIfDone()
            return
        }
        let refusal: ProtocolError? = state.withLock { current in
            if current.isShuttingDown { return .invalidRequest("the extension is shutting down") }
            if current.inFlight[id] != nil { return .invalidRequest("request \(id.jsonText) is still running: give each request its own id") }
            let task = Task { [self] in
                let outcome: Result<any Encodable & Sendable, ProtocolError>
                do {
                    outcome = .success(try await answer(method, params: params, id: id))
                } catch {
                    outcome = .failure(.answering(error, of: method, in: Localization(locale: locale(of: params))))
                }
                let wasCancelled = state.withLock { state in
                    state.inFlight[id] = nil
                    return state.cancelled.remove(id) != nil || state.inputEnded
                }
                switch outcome {
                case _ where wasCancelled: send(.error(id: id, .cancelled))
                case .success(let result): send(.result(id: id, result))
                case .failure(let error): send(.error(id: id, error))
                }
                finishIfDone()
            }
            current.inFlight[id] = task
            return nil
        }
        if let refusal { send(.error(id: id, refusal)) }
    }

    private func answer(_ method: String, params: ProtocolParams, id: IntentValue) async throws -> any Encodable & Sendable {
        switch method {
        case "initialize": return try initialize(params)
        case "intents/perform": return try await perform(params, requestID: id)
        case "entities/byIdentifiers", "entities/matching", "entities/suggested", "entities/query":
            return try await entities(method, params: params)
        default: throw ProtocolError.methodNotFound(method)
        }
    }

    private func cancel(_ id: IntentValue) {
        let task: Task<Void, Never>? = state.withLock { state in
            guard let task = state.inFlight[id] else { return nil }
            state.cancelled.insert(id)
            return task
        }
        task?.cancel()
    }

    private func inputEnded() {
        let (tasks, pending) = state.withLock { state in
            state.inputEnded = true
            defer { state.pending = [:] }
            return (Array(state.inFlight.values), Array(state.pending.values))
        }
        for continuation in pending {
            continuation.resume(throwing: ProtocolError(code: ProtocolError.cancelledCode, message: "the engine closed the connection"))
        }
        for task in tasks { task.cancel() }
        finishIfDone()
        // Intents that do not stop when cancelled get two seconds.
        clock.pause(for: .seconds(2))
        finish()
    }

    private func finishIfDone() {
        let done = state.withLock { state in (state.isShuttingDown || state.inputEnded) && state.inFlight.isEmpty }
        if done { finish() }
    }

    private func finish() {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.whenFinished = nil }
            return state.whenFinished
        }
        continuation?.resume()
    }

    // MARK: Writing

    /// Writes one message as one line; messages never interleave.
    func send(_ message: OutgoingMessage) {
        let line: Data
        do {
            line = try message.line()
        } catch {
            guard case .result(let id, _) = message else { return }
            send(.error(id: id, .internalError("the result cannot be written as JSON: \(error)")))
            return
        }
        let written = writing.withLock { _ in streams.write(line) }
        if !written { finish() }
    }

    /// Sends a `log` notification.
    func log(_ level: String, _ message: String, requestID: IntentValue? = nil) {
        var params: [String: IntentValue] = ["level": .string(level), "message": .string(message)]
        if let requestID { params["requestId"] = requestID }
        send(.notification(method: "log", params: .dictionary(params)))
    }

    /// Sends a request to the engine and waits for its answer.
    ///
    /// - Throws: The engine's error as a ``ProtocolError``, or `CancellationError` when the
    ///   calling task is cancelled (the answer is then ignored).
    func request(_ method: String, params: [String: IntentValue]) async throws -> IntentValue {
        let id = state.withLock { state in
            defer { state.nextRequestID += 1 }
            return state.nextRequestID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<IntentValue, any Error>) in
                let refusal: (any Error)? = state.withLock { state in
                    if Task.isCancelled { return CancellationError() }
                    if state.inputEnded { return ProtocolError(code: ProtocolError.cancelledCode, message: "the engine closed the connection") }
                    state.pending[id] = continuation
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: refusal)
                } else {
                    send(.request(id: .int(id), method: method, params: .dictionary(params)))
                }
            }
        } onCancel: {
            let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
            continuation?.resume(throwing: CancellationError())
        }
    }

    // MARK: Locale

    /// The locale of a request: its `locale`, else the one `initialize` gave.
    func locale(of params: ProtocolParams) -> String {
        if case .string(let locale)? = params.members["locale"] { return locale }
        return state.withLock { $0.locale }
    }

    func setSessionLocale(_ locale: String) {
        state.withLock { $0.locale = locale }
    }
}

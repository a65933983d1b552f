import Clockwork
import Foundation
import Logging
import Synchronization

/// A JSON-RPC 2.0 client of one running extension, over its standard input and output, one
/// message per line.
///
/// Requests carry increasing integer ids and may overlap; each waits for its own answer. The
/// extension's requests (`interaction/…`) are handed to ``Handlers/request`` on a task of
/// their own and answered when it returns; its notifications (`log`, `progress`) go to the
/// log. When the process ends, every waiting request fails with what happened; when it writes
/// anything that is not a message of the protocol, every waiting request fails with a protocol
/// error naming it, and the process is ended. A closed connection stays closed: the host
/// starts another one.
///
/// ```swift
/// let connection = try ExtensionConnection.start(name: "Greeter", executable: "/usr/local/bin/greeter")
/// let answer = try await connection.request("initialize", ["protocolVersions": [1]], activity: "starting")
/// ```
package final class ExtensionConnection: Sendable {
    /// The protocol versions this engine speaks.
    package static let protocolVersions = [1]

    /// What the connection asks its owner.
    package struct Handlers: Sendable {
        /// Answers a request of the extension: method, parameters; throws ``RemoteError`` or any error.
        var request: @Sendable (String, JSONValue) async throws -> JSONValue
        /// Takes a notification of the extension other than `log`.
        var notification: @Sendable (String, JSONValue) -> Void

        package init(
            request: @escaping @Sendable (String, JSONValue) async throws -> JSONValue = { method, _ in
                throw RemoteError(code: -32601, message: "method not found: \(method)")
            },
            notification: @escaping @Sendable (String, JSONValue) -> Void = { _, _ in }
        ) {
            self.request = request
            self.notification = notification
        }
    }

    /// An error answered to the extension.
    package struct RemoteError: Error {
        var code: Int
        var message: String
        var data: JSONValue?

        package init(code: Int, message: String, data: JSONValue? = nil) {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    private struct Pending {
        var continuation: CheckedContinuation<JSONValue, any Error>
        var activity: String
        /// How many lines the extension had written to standard error when the request was sent.
        var errorLinesBefore: Int
    }

    private enum Closure {
        case exited(ProcessTermination)
        case failed(ExtensionError)
        case stopping
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        var cancelledBeforeSending: Set<Int> = []
        var cancelledWaitingForAnswer: Set<Int> = []
        var closure: Closure?
        /// Whether `shutdown` was sent: the exit that follows is expected.
        var stopping = false
        /// The last lines of standard error, and how many were written in all.
        var errorLines: [String] = []
        var errorLineCount = 0
    }

    /// How many of the last lines of standard error a failed request's error carries.
    static let errorLinesKept = 20

    /// The extension's name, as errors and the log show it.
    package let name: String
    private let state = Mutex(State())
    private let process: Mutex<ExtensionProcess?> = Mutex(nil)
    private let handlers: Handlers
    /// How long a cancelled request's extension has to answer before it is ended.
    private let cancellationGrace: Duration
    /// What the grace periods are measured by.
    private let clock: any EngineClock

    private init(name: String, handlers: Handlers, cancellationGrace: Duration, clock: any EngineClock) {
        self.name = name
        self.handlers = handlers
        self.cancellationGrace = cancellationGrace
        self.clock = clock
    }

    /// Starts `EXECUTABLE extension serve` and connects to it.
    ///
    /// - Throws: ``ExtensionError/cannotStart(extension:reason:)``.
    package static func start(
        name: String, executable: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        handlers: Handlers = Handlers(), cancellationGrace: Duration = .seconds(2), clock: any EngineClock = .system
    ) throws -> ExtensionConnection {
        let connection = ExtensionConnection(name: name, handlers: handlers, cancellationGrace: cancellationGrace, clock: clock)
        let events = ExtensionProcess.Events(
            output: { [weak connection] line in connection?.received(line) },
            error: { [weak connection] line in
                ExtensionLog.logger.info("\(name): \(line)", metadata: ["extension": .string(name)])
                connection?.wroteError(line)
            },
            exit: { [weak connection] termination in connection?.ended(termination) })
        do {
            let started = try ExtensionProcess.start(
                executable: executable, arguments: ["extension", "serve"], environment: environment, events: events, clock: clock)
            connection.process.withLock { $0 = started }
            ExtensionLog.logger.debug("\(name): started (pid \(started.pid))", metadata: ["extension": .string(name)])
        } catch let error as ExtensionProcess.StartError {
            throw ExtensionError.cannotStart(extension: name, reason: error.reason)
        }
        return connection
    }

    /// Whether the connection can take no more requests (its process ended or misbehaved).
    package var isClosed: Bool { state.withLock { $0.closure != nil } }

    /// The process's id.
    package var pid: pid_t? { process.withLock { $0?.pid } }

    /// Sends a request and waits for its answer.
    ///
    /// When the calling task is cancelled, the request fails with `CancellationError` at once,
    /// the extension gets `$/cancel`, and if it does not answer within the grace period it is ended.
    ///
    /// - Parameters:
    ///   - method: The method's name.
    ///   - parameters: Its parameters.
    ///   - activity: What the request does, for errors: `performing Greet`.
    ///   - id: An id from ``reserveID()``, or `nil` for a fresh one.
    /// - Returns: The answer's `result`.
    /// - Throws: ``ExtensionError``, or `CancellationError`.
    package func request(_ method: String, _ parameters: JSONValue, activity: String, id: Int? = nil) async throws -> JSONValue {
        let id = id ?? reserveID()
        let line = Data((JSONValue.object(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": parameters]).text + "\n").utf8)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                let refusal: (any Error)? = state.withLock { state in
                    if let closure = state.closure { return error(for: closure, activity: activity) }
                    if state.cancelledBeforeSending.remove(id) != nil { return CancellationError() }
                    state.pending[id] = Pending(continuation: continuation, activity: activity, errorLinesBefore: state.errorLineCount)
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: refusal)
                    return
                }
                // When the write fails the process has gone: its exit fails the request.
                process.withLock { $0 }?.write(line)
            }
        } onCancel: {
            cancel(id: id)
        }
    }

    /// An id for a request about to be sent, so that the extension's requests that name it
    /// (`requestId`) can be told apart before it is answered.
    package func reserveID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Sends a notification.
    package func notify(_ method: String, _ parameters: JSONValue) {
        let line = JSONValue.object(["jsonrpc": "2.0", "method": .string(method), "params": parameters]).text + "\n"
        process.withLock { $0 }?.write(Data(line.utf8))
    }

    private func cancel(id: Int) {
        let pending: Pending? = state.withLock { state in
            guard let pending = state.pending.removeValue(forKey: id) else {
                state.cancelledBeforeSending.insert(id)
                return nil
            }
            state.cancelledWaitingForAnswer.insert(id)
            return pending
        }
        guard let pending else { return }
        pending.continuation.resume(throwing: CancellationError())
        notify("$/cancel", ["id": .int(id)])
        let grace = cancellationGrace
        Task.detached { [weak self, clock] in
            try? await clock.sleep(for: grace)
            guard let self else { return }
            let stillWaiting = self.state.withLock { $0.closure == nil && $0.cancelledWaitingForAnswer.contains(id) }
            if stillWaiting {
                ExtensionLog.logger.notice(
                    "\(self.name): did not stop \(pending.activity) within \(grace) of being cancelled; ending it",
                    metadata: ["extension": .string(self.name)])
                self.close(.unresponsive(extension: self.name, activity: pending.activity))
            }
        }
    }

    /// Asks the extension to stop (`shutdown`), and ends it when it does not within `grace`.
    package func shutdown(grace: Duration = .seconds(2)) async {
        let pendingStop = state.withLock { state -> Bool in
            guard state.closure == nil else { return false }
            state.stopping = true
            return true
        }
        guard pendingStop else { return }
        _ = try? await withThrowingTaskGroup(of: JSONValue.self) { group in
            group.addTask { try await self.request("shutdown", .null, activity: "shutting down") }
            group.addTask { [clock] in
                try await clock.sleep(for: grace)
                throw CancellationError()
            }
            defer { group.cancelAll() }
            return try await group.next()
        }
        let failed = state.withLock { state -> [Pending] in
            if state.closure == nil { state.closure = .stopping }
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for pending in failed { pending.continuation.resume(throwing: ExtensionError.stopped(extension: name)) }
        guard let process = process.withLock({ $0 }) else { return }
        process.closeInput()
        let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        // Waiting blocks: on a thread of its own, not one of the few of Swift's pool.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                if !process.waitForExit(timeout: seconds) { process.terminate(grace: 1) }
                continuation.resume()
            }
        }
    }

    /// Fails every waiting request with `error` and ends the process.
    package func close(_ error: ExtensionError) {
        let failed = state.withLock { state -> [Pending] in
            guard state.closure == nil else { return [] }
            state.closure = .failed(error)
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for pending in failed { pending.continuation.resume(throwing: error) }
        if let process = process.withLock({ $0 }) {
            Thread.detachNewThread { process.terminate(grace: 1) }
        }
    }

    private func error(for closure: Closure, activity: String) -> any Error {
        switch closure {
        case .exited(let termination): ExtensionError.exited(extension: name, termination: termination, activity: activity)
        case .failed(let error): error
        case .stopping: ExtensionError.stopped(extension: name)
        }
    }

    // MARK: Incoming

    private func ended(_ termination: ProcessTermination) {
        let (failed, wasStopping) = state.withLock { state -> ([Pending], Bool) in
            let wasStopping = state.stopping || state.closure != nil || process.withLock { $0?.isStopping } == true
            if state.closure == nil { state.closure = .exited(termination) }
            defer { state.pending.removeAll() }
            return (Array(state.pending.values), wasStopping)
        }
        for pending in failed {
            pending.continuation.resume(
                throwing: withStandardError(
                    ExtensionError.exited(extension: name, termination: termination, activity: pending.activity), since: pending))
        }
        if wasStopping {
            ExtensionLog.logger.debug("\(name): stopped (\(termination))", metadata: ["extension": .string(name)])
        } else {
            ExtensionLog.logger.notice("\(name): \(termination)", metadata: ["extension": .string(name)])
        }
    }

    private func received(_ output: ExtensionProcess.OutputLine) {
        guard case .line(let line) = output else {
            return violation("wrote a line longer than \(ExtensionProcess.lineLimit / 1024 / 1024) MiB")
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        guard !isClosed, process.withLock({ $0?.isStopping }) != true else { return }
        guard let message = try? JSONValue.parse(line), case .object(let members) = message else {
            return violation("wrote a line that is not a JSON-RPC message: \(Self.quote(line))")
        }
        guard members["jsonrpc"] == "2.0" else {
            return violation("wrote a message without \"jsonrpc\": \"2.0\": \(Self.quote(line))")
        }
        if let method = members["method"]?.stringValue {
            if let id = members["id"] {
                answer(id: id, method: method, parameters: members["params"] ?? .null)
            } else if method == "log" {
                log(members["params"] ?? .null)
            } else {
                handlers.notification(method, members["params"] ?? .null)
            }
            return
        }
        guard let id = members["id"]?.intValue, members["result"] != nil || members["error"] != nil else {
            if members["id"] == .null, let error = members["error"] {
                let text = error["message"]?.stringValue ?? "no message"
                return violation("answered a message it could not read: \(text)")
            }
            return violation("wrote a message that is neither a request nor an answer: \(Self.quote(line))")
        }
        enum Outcome {
            case deliver(Pending)
            case ignore
            case unknown
        }
        let outcome = state.withLock { state -> Outcome in
            if let pending = state.pending.removeValue(forKey: id) { return .deliver(pending) }
            if state.cancelledWaitingForAnswer.remove(id) != nil { return .ignore }
            return .unknown
        }
        switch outcome {
        case .ignore: return
        case .unknown: return violation("answered request \(id), which was not asked or was answered already")
        case .deliver(let pending):
            if let error = members["error"] {
                var failure = remoteError(error, activity: pending.activity)
                if let answered = failure as? ExtensionError, case .errorResponse = answered { failure = withStandardError(answered, since: pending) }
                pending.continuation.resume(throwing: failure)
            } else {
                pending.continuation.resume(returning: members["result"] ?? .null)
            }
        }
    }

    /// Keeps a line of standard error for the errors of the requests that fail.
    private func wroteError(_ line: String) {
        state.withLock { state in
            state.errorLines.append(line)
            if state.errorLines.count > Self.errorLinesKept { state.errorLines.removeFirst() }
            state.errorLineCount += 1
        }
    }

    /// The error with what the extension wrote to standard error since the request was sent
    /// (the last ``errorLinesKept`` lines), or as it is when it wrote nothing meanwhile.
    private func withStandardError(_ error: ExtensionError, since pending: Pending) -> ExtensionError {
        let lines = state.withLock { state -> [String] in
            let written = state.errorLineCount - pending.errorLinesBefore
            return Array(state.errorLines.suffix(min(written, state.errorLines.count)))
        }
        return lines.isEmpty ? error : .withStandardError(error, lines: lines)
    }

    private func remoteError(_ error: JSONValue, activity: String) -> any Error {
        let code = error["code"]?.intValue ?? -32603
        let message = error["message"]?.stringValue ?? "no message"
        switch code {
        case -32000: return ExtensionError.failed(extension: name, message: message)
        case -32001: return CancellationError()
        case -32002:
            let supported = error["data"]?["supported"]?.arrayValue?.compactMap(\.intValue) ?? []
            return ExtensionError.unsupportedVersion(extension: name, supported: supported)
        default: return ExtensionError.errorResponse(extension: name, activity: activity, code: code, message: message)
        }
    }

    private func answer(id: JSONValue, method: String, parameters: JSONValue) {
        let handler = handlers.request
        Task { [weak self] in
            var response: JSONValue = ["jsonrpc": "2.0", "id": id]
            do {
                let result = try await handler(method, parameters)
                response = ["jsonrpc": "2.0", "id": id, "result": result]
            } catch let error as RemoteError {
                var object: [String: JSONValue] = ["code": .int(error.code), "message": .string(error.message)]
                if let data = error.data { object["data"] = data }
                response = ["jsonrpc": "2.0", "id": id, "error": .object(object)]
            } catch {
                response = ["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": .string("\(error)")]]
            }
            guard let self else { return }
            self.process.withLock { $0 }?.write(Data((response.text + "\n").utf8))
        }
    }

    private func log(_ parameters: JSONValue) {
        let message = parameters["message"]?.stringValue ?? ""
        let level: Logger.Level =
            switch parameters["level"]?.stringValue {
            case "debug": .debug
            case "warning": .warning
            case "error": .error
            default: .info
            }
        ExtensionLog.logger.log(level: level, "\(name): \(message)", metadata: ["extension": .string(name)])
    }

    private func violation(_ reason: String) {
        ExtensionLog.logger.notice("\(name): protocol error: \(reason)", metadata: ["extension": .string(name)])
        close(.protocolViolation(extension: name, reason: reason))
    }

    private static func quote(_ line: Data) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return "'" + text + (line.count > 120 ? "…" : "") + "'"
    }
}

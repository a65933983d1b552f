import Clockwork
import Foundation
import IntentKit
import MCP
import Synchronization

/// A running MCP server and the MCP client that speaks to it over its standard input and
/// output.
///
/// ```swift
/// let connection = try await MCPServerConnection.start(server)
/// let tools = try await connection.tools()
/// let result = try await connection.call("forecast", arguments: ["city": "Oslo"], interaction: NoInteraction())
/// await connection.stop()
/// ```
///
/// When the server exits, whatever waits on it fails with ``MCPServerConnectionError/exited(server:termination:activity:standardError:)``
/// (the end of its standard error quoted); when it writes a line longer than 4 MiB, it is ended
/// and whatever waits on it fails with ``MCPServerConnectionError/lineTooLong(server:limit:activity:)``;
/// when the calling task is cancelled (a step's timeout), the call is cancelled on the server
/// (`notifications/cancelled`) and throws `CancellationError`. A server that asks for input
/// while a call runs (`elicitation/create`) is answered through that call's interaction.
package actor MCPServerConnection {
    /// The server's configuration.
    package nonisolated let server: MCPServerConfiguration
    private let process: MCPServerProcess
    private let client: Client
    /// The interactions of the calls under way, by call.
    private var interactions: [UUID: any Interaction] = [:]
    /// The questions a call's interaction could not answer.
    private var unanswered: [UUID: any Error] = [:]

    /// How long a server has to answer `initialize`: 30 seconds.
    package static let startTimeout: Duration = .seconds(30)

    private init(server: MCPServerConfiguration, process: MCPServerProcess) {
        self.server = server
        self.process = process
        client = Client(
            name: "shortcuts", version: "1.0", capabilities: Client.Capabilities(elicitation: .init(form: .init())))
    }

    /// Whether the server's process is still running.
    package nonisolated var isRunning: Bool { process.termination == nil }

    /// The server's process identifier.
    package nonisolated var processID: Int32 { process.processID }

    /// Starts a server and completes the MCP handshake.
    ///
    /// - Parameters:
    ///   - server: The server's configuration.
    ///   - environment: The environment the configuration's variables are added to.
    ///   - timeout: How long the server has to answer `initialize`, by `clock`.
    ///   - clock: The clock the start's timeout and the stop's grace periods are measured by;
    ///     the real one by default.
    /// - Returns: The connection.
    /// - Throws: ``MCPServerConnectionError`` when the server cannot be started, exits or does
    ///   not answer; `CancellationError` when the calling task is cancelled.
    package static func start(
        _ server: MCPServerConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = startTimeout, clock: any EngineClock = .system
    ) async throws -> MCPServerConnection {
        let process: MCPServerProcess
        do {
            process = try MCPServerProcess(
                command: server.command, arguments: server.arguments, environment: environment.merging(server.environment) { $1 },
                clock: clock)
        } catch let error as MCPServerProcess.LaunchError {
            throw MCPServerConnectionError.cannotStart(server: server.name, reason: error.description)
        }
        let connection = MCPServerConnection(server: server, process: process)
        try await connection.connect(timeout: timeout)
        return connection
    }

    private func connect(timeout: Duration) async throws {
        await client.withElicitationHandler { [weak self] parameters in
            guard let self else { return CreateElicitation.Result(action: .decline) }
            return await self.elicit(parameters)
        }
        let timedOut = Mutex(false)
        let process = process
        let watchdog = Task {
            try await process.clock.sleep(for: timeout)
            timedOut.withLock { $0 = true }
            killpg(process.processID, SIGKILL)
        }
        let client = client
        Task {
            _ = await process.waitForTermination()
            await client.disconnect()
        }
        defer { watchdog.cancel() }
        do {
            try await withTaskCancellationHandler {
                _ = try await client.connect(transport: ProcessTransport(process: process))
            } onCancel: {
                killpg(process.processID, SIGKILL)
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if process.wroteLineOverLimit {
                throw MCPServerConnectionError.lineTooLong(server: server.name, limit: MCPServerProcess.lineLimit, activity: "starting")
            }
            let standardError = await standardErrorAfterExit()
            if timedOut.withLock({ $0 }) {
                throw MCPServerConnectionError.startTimedOut(
                    server: server.name, seconds: Int(timeout.components.seconds), standardError: standardError)
            }
            if let termination = process.termination {
                throw MCPServerConnectionError.exited(
                    server: server.name, termination: termination.description, activity: "starting", standardError: standardError)
            }
            killpg(process.processID, SIGKILL)
            throw MCPServerConnectionError.failed(server: server.name, activity: "starting", message: Self.message(of: error))
        }
    }

    /// The server's tools, every page of `tools/list`.
    ///
    /// - Throws: ``MCPServerConnectionError``.
    package func tools() async throws -> [Tool] {
        var tools: [Tool] = []
        var cursor: String?
        repeat {
            do {
                let page = try await client.listTools(cursor: cursor)
                tools += page.tools
                cursor = page.nextCursor
            } catch {
                throw await translate(error, activity: "listing its tools")
            }
        } while cursor != nil
        return tools
    }

    /// Calls a tool.
    ///
    /// - Parameters:
    ///   - tool: The tool's name.
    ///   - arguments: Its arguments.
    ///   - interaction: Who answers the questions the server asks meanwhile.
    /// - Returns: The tool's result, `isError` included.
    /// - Throws: ``MCPServerConnectionError``, `CancellationError`, or the interaction's error when
    ///   the tool failed after a question that could not be answered.
    package func call(_ tool: String, arguments: [String: Value], interaction: any Interaction) async throws -> CallTool.Result {
        let call = UUID()
        interactions[call] = interaction
        defer {
            interactions[call] = nil
            unanswered[call] = nil
        }
        let result: CallTool.Result
        do {
            let context: RequestContext<CallTool.Result> = try await client.send(CallTool.request(.init(name: tool, arguments: arguments)))
            let client = client
            result = try await withTaskCancellationHandler {
                try await context.value
            } onCancel: {
                Task { try? await client.cancelRequest(context.requestID, reason: "the step was cancelled") }
            }
        } catch {
            throw await translate(error, activity: "calling '\(tool)'")
        }
        if result.isError == true, let question = unanswered[call] { throw question }
        return result
    }

    /// Ends the server (standard input closed, then `SIGTERM`, then `SIGKILL`) and the client.
    package func stop() async {
        await process.stop()
        await client.disconnect()
    }

    /// The end of the server's standard error once the server has ended and its standard
    /// error has been read to the end, or what was read of it when that takes longer than
    /// 100 ms (by the process's clock: a server that escaped its group may hold the pipe).
    private func standardErrorAfterExit() async -> String {
        let deadline = process.clock.now().adding(.milliseconds(100))
        if await process.waitForTermination(until: deadline) != nil {
            _ = await process.waitForStandardErrorEnd(until: deadline)
        }
        return process.standardErrorTail
    }

    /// The error to report for a failed request.
    private func translate(_ error: any Error, activity: String) async -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if process.termination == nil, case MCPError.internalError("Client disconnected")? = error as? MCPError {
            // The client was disconnected because the process is ending: wait for it.
            _ = await process.waitForTermination()
        }
        if process.wroteLineOverLimit {
            return MCPServerConnectionError.lineTooLong(server: server.name, limit: MCPServerProcess.lineLimit, activity: activity)
        }
        if let termination = process.termination {
            return MCPServerConnectionError.exited(
                server: server.name, termination: termination.description, activity: activity, standardError: await standardErrorAfterExit())
        }
        return MCPServerConnectionError.failed(server: server.name, activity: activity, message: Self.message(of: error))
    }

    private static func message(of error: any Error) -> String {
        if let error = error as? MCPError {
            switch error {
            case .serverError(_, let message): return message
            case .invalidParams(let detail), .internalError(let detail), .methodNotFound(let detail), .invalidRequest(let detail),
                .parseError(let detail):
                return detail ?? error.localizedDescription
            default: return error.localizedDescription
            }
        }
        return String(describing: error)
    }

    // MARK: - Elicitation

    /// Answers `elicitation/create` through the interaction of the one call under way: each
    /// field of the requested form is asked for in turn. The request is declined when no call
    /// or several are under way (the question could not be told apart) or for a URL.
    private func elicit(_ parameters: CreateElicitation.Parameters) async -> CreateElicitation.Result {
        guard case .form(let form) = parameters, interactions.count == 1, let (call, interaction) = interactions.first else {
            return CreateElicitation.Result(action: .decline)
        }
        let fields = form.requestedSchema.properties.keys.sorted()
        var content: [String: Value] = [:]
        do {
            for name in fields {
                let schema = form.requestedSchema.properties[name]?.objectValue ?? [:]
                var question = form.message
                if fields.count > 1, let title = schema["title"]?.stringValue ?? schema["description"]?.stringValue {
                    question += " (\(title))"
                }
                if let options = schema["enum"]?.arrayValue?.compactMap(\.stringValue), !options.isEmpty {
                    let index = try await interaction.requestChoice(ChoiceRequest(name: name, question: question, options: options))
                    content[name] = .string(options[index])
                    continue
                }
                let type: IntentValueType =
                    switch schema["type"]?.stringValue {
                    case "integer": .int
                    case "number": .double
                    case "boolean": .bool
                    default: .string
                    }
                let answer = try await interaction.requestValue(ValueRequest(name: name, question: question, type: type))
                if !answer.isNull { content[name] = answer.mcpValue }
            }
        } catch {
            unanswered[call] = error
            return CreateElicitation.Result(action: .cancel)
        }
        return CreateElicitation.Result(action: .accept, content: content)
    }
}

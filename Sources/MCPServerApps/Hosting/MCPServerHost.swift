import Clockwork
import Foundation
import IntentKit
import MCP
import Synchronization

/// Performs the intents of an MCP server's app by calling its tools: the ``IntentHost`` of
/// `mcp.NAME`.
///
/// The server starts when a run that names its tools begins (``prepare()``) or on the first
/// call, and stays up for the process (every run of a daemon); one that has
/// exited is started again on the next call. A call's result becomes the intent's:
///
/// - `structuredContent` is the value (an object is a dictionary, so a later step reads
///   `${step.key}`); a plain value a server wraps as `{"result": …}` is unwrapped;
/// - otherwise a single text content that is a JSON object or array is that value (a server
///   that returns a dictionary without structured content writes it so);
/// - otherwise the text content is the value, as text;
/// - `isError` fails the step with the tool's text.
///
/// ```swift
/// let host = MCPServerHost(server: server, tools: tools)
/// let result = try await host.perform(HostedIntentRequest(
///     app: "mcp.weather", intent: "forecast", arguments: ["city": .string("Oslo")], locale: "en", interaction: NoInteraction()))
/// ```
package final class MCPServerHost: IntentHost {
    /// The server's configuration.
    package let server: MCPServerConfiguration
    /// The tools the app was made from.
    package let tools: [Tool]
    private let environment: [String: String]
    private let clock: any EngineClock
    private let state: Mutex<State>

    /// Whether the server is down, starting or up.
    private enum State {
        case stopped
        case starting(Task<MCPServerConnection, any Error>)
        case running(MCPServerConnection)
    }

    /// Creates the host of a server.
    ///
    /// - Parameters:
    ///   - server: The server's configuration.
    ///   - tools: Its tools (from the cache or `tools/list`).
    ///   - connection: A connection already open to it, used for the first call.
    ///   - environment: The environment the server's variables are added to.
    ///   - clock: The clock the servers it starts measure their timeouts by.
    package init(
        server: MCPServerConfiguration, tools: [Tool], connection: MCPServerConnection? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, clock: any EngineClock = .system
    ) {
        self.server = server
        self.tools = tools
        self.environment = environment
        self.clock = clock
        self.state = Mutex(connection.map { .running($0) } ?? .stopped)
    }

    package func perform(_ request: HostedIntentRequest) async throws -> HostedIntentResult {
        let connection = try await runningConnection()
        let arguments = request.arguments.filter { !$0.value.isNull }.mapValues(\.mcpValue)
        let result = try await connection.call(request.intent, arguments: arguments, interaction: request.interaction)
        return try hostedResult(of: result, tool: request.intent)
    }

    /// MCP servers declare no entities.
    package func entities(_ request: HostedEntityRequest) async throws -> [EntityValue] { [] }

    /// Starts the server in the background when it is not running; a start that fails is
    /// started again, and its error shown, by the first call.
    package func prepare() {
        Task { _ = try? await runningConnection() }
    }

    /// Stops the server if it runs.
    package func stop() async {
        let current = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        switch current {
        case .stopped: break
        case .starting(let task): await (try? task.value)?.stop()
        case .running(let connection): await connection.stop()
        }
    }

    /// The connection to the running server, started when there is none or it has exited.
    private func runningConnection() async throws -> MCPServerConnection {
        let task = state.withLock { state -> Task<MCPServerConnection, any Error> in
            switch state {
            case .running(let connection) where connection.isRunning: return Task { connection }
            case .starting(let task): return task
            default:
                let server = server
                let environment = environment
                let clock = clock
                let started = Task { try await MCPServerConnection.start(server, environment: environment, clock: clock) }
                state = .starting(started)
                return started
            }
        }
        do {
            let connection = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            state.withLock { state in
                if case .starting(let current) = state, current == task { state = .running(connection) }
            }
            return connection
        } catch {
            state.withLock { state in
                if case .starting(let current) = state, current == task { state = .stopped }
            }
            throw error
        }
    }

    /// The intent's result for a tool's result.
    ///
    /// - Throws: ``MCPServerConnectionError/toolError(server:tool:message:)`` for `isError`.
    func hostedResult(of result: CallTool.Result, tool: String) throws -> HostedIntentResult {
        let text = result.content.compactMap { content -> String? in
            if case .text(let text, _, _) = content { return text }
            return nil
        }.joined(separator: "\n")
        if result.isError == true {
            throw MCPServerConnectionError.toolError(server: server.name, tool: tool, message: text.isEmpty ? "no message" : text)
        }
        if var structured = result.structuredContent {
            if let definition = tools.first(where: { $0.name == tool }), MCPToolMetadata.wrappedResultSchema(of: definition) != nil,
                let wrapped = structured.objectValue?["result"]
            {
                structured = wrapped
            }
            return HostedIntentResult(value: structured.intentValue)
        }
        if result.content.count == 1, let value = Self.jsonContainer(text) { return HostedIntentResult(value: value) }
        return HostedIntentResult(value: text.isEmpty ? nil : .string(text))
    }

    /// The value of a text that is a JSON object or array, or `nil` for any other text.
    static func jsonContainer(_ text: String) -> IntentValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{") || trimmed.hasPrefix("["), let value = try? JSONDecoder().decode(Value.self, from: Data(trimmed.utf8))
        else { return nil }
        return value.intentValue
    }
}

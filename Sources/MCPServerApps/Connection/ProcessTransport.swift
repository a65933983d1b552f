import Foundation
import Logging
import MCP

/// The MCP stdio transport over a started server's standard input and output: one JSON-RPC
/// message per line each way.
actor ProcessTransport: Transport {
    nonisolated let logger = Logger(label: "shortcuts.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    private let process: MCPServerProcess
    private let stream: AsyncThrowingStream<Data, any Error>

    init(process: MCPServerProcess) {
        self.process = process
        let messages = process.messages
        stream = AsyncThrowingStream { continuation in
            let forwarding = Task {
                for await message in messages { continuation.yield(message) }
                // The stream ends with the process, not with its output: the client reads a
                // finished stream again and again.
                _ = await process.waitForTermination()
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    func connect() async throws {}

    func disconnect() async {}

    func send(_ data: Data) async throws {
        try await process.send(data)
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { stream }
}

import Foundation
import Logging
import MCP
import ProcessSpawning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The MCP stdio transport of `shortcuts mcp` over a ``ProtocolChannel``: one JSON-RPC message
/// per line each way, read in time linear in the bytes, each line at most 4 MiB
/// (``messageLimit``, split by ProcessSpawning's `LineSplitter`). Blank lines are no messages
/// and are skipped.
///
/// Each line is read by ``IncomingMessage`` first; the server's handlers see only well-formed
/// requests for the methods they serve, notifications and responses. Every other line is
/// answered here, with JSON-RPC 2.0's code and the request's id or `null`, and reading goes on
/// with the next line.
///
/// When the client closes its end, the server still answers each request it read: a question
/// it asked the client and that is still open fails (the client can no longer answer), and the
/// messages end once the last request is answered, so the server stops.
///
/// A thread of its own reads, with blocking reads (a descriptor left non-blocking waits in
/// `poll`), and holds at most 8 unread messages, so a client that writes faster than the server
/// reads waits for it. Writes block the same way.
///
/// ```swift
/// let transport = ChannelTransport(channel: channel, methods: methods, logger: logger)
/// try await server.start(transport: transport)
/// ```
actor ChannelTransport: Transport {
    nonisolated let logger: Logger
    private let channel: ProtocolChannel
    private let methods: ServedMethods
    private let limit: Int
    private let messages: AsyncThrowingStream<Data, any Error>
    private let messagesContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// The client's requests passed to the handlers and not answered yet, by id (an id may be
    /// reused while its first request runs).
    private var unanswered: [ID: Int] = [:]
    /// The server's requests to the client not answered yet.
    private var asked: Set<ID> = []
    private var inputEnded = false
    private var isConnected = false

    /// The longest message read, in bytes without its newline: 4 MiB.
    static let messageLimit = 4 * 1024 * 1024

    /// Reads and writes a channel.
    ///
    /// - Parameters:
    ///   - channel: The descriptors, which stay open.
    ///   - methods: The requests the server's handlers answer.
    ///   - limit: The longest message read, in bytes without its newline.
    ///   - logger: Receives what was dropped and why.
    init(channel: ProtocolChannel, methods: ServedMethods, limit: Int = messageLimit, logger: Logger) {
        self.channel = channel
        self.methods = methods
        self.limit = limit
        self.logger = logger
        (messages, messagesContinuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    func connect() async throws {
        guard !isConnected else { return }
        isConnected = true
        let (lines, linesContinuation) = AsyncStream.makeStream(of: LineEvent.self)
        let room = DispatchSemaphore(value: 8)
        let reader = Thread { [channel, limit] in Self.readLines(from: channel.input, limit: limit, into: linesContinuation, room: room) }
        reader.name = "MCP input"
        reader.start()
        Task {
            for await event in lines {
                handle(event)
                room.signal()
            }
        }
    }

    func disconnect() async {
        isConnected = false
        messagesContinuation.finish()
    }

    func send(_ data: Data) async throws {
        let envelope = try? JSONDecoder().decode(OutgoingEnvelope.self, from: data)
        if let id = envelope?.id, envelope?.method != nil {
            guard !inputEnded else { throw MCPError.connectionClosed }
            asked.insert(id)
        }
        defer {
            if let id = envelope?.id, envelope?.method == nil { answered(id) }
        }
        try writeLine(data)
    }

    func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    // MARK: - Reading

    /// What the reading thread saw.
    private enum LineEvent: Sendable {
        case line(LineSplitter.Event)
        /// The input ended, or could not be read (`errno`'s text).
        case end(failure: String?)
    }

    private func handle(_ event: LineEvent) {
        switch event {
        case .line(.tooLong(let byteCount)):
            let reason = "the message is \(byteCount) bytes long, over the limit of \(limit) bytes"
            writeAnswer(ErrorAnswer(id: nil, error: .invalidRequest(reason)))
        case .line(.limitExceeded):
            // Answered at the line's end, when its length is known.
            break
        case .line(.line(let line)):
            switch IncomingMessage(line, methods: methods) {
            case .request(let id):
                unanswered[id, default: 0] += 1
                messagesContinuation.yield(line)
            case .notification(_, let cancelled):
                // A cancelled request may end without an answer.
                if let cancelled { unanswered[cancelled] = nil }
                messagesContinuation.yield(line)
            case .response(let id):
                asked.remove(id)
                messagesContinuation.yield(line)
            case .answered(let answer):
                writeAnswer(answer)
            case .dropped(let reason):
                logger.warning("\(reason): not answered, as JSON-RPC answers only requests")
            }
        case .end(let failure):
            if let failure { logger.error("reading the protocol's input failed: \(failure)") }
            inputEnded = true
            for id in asked {
                let error = MCPError.internalError("the client closed its input before answering")
                if let response = try? JSONEncoder().encode(Response<ClosedInput>(id: id, error: error)) {
                    messagesContinuation.yield(response)
                }
            }
            asked = []
            finishWhenAnswered()
        }
    }

    private func answered(_ id: ID) {
        if let count = unanswered[id] { unanswered[id] = count > 1 ? count - 1 : nil }
        finishWhenAnswered()
    }

    private func finishWhenAnswered() {
        if inputEnded && unanswered.isEmpty { messagesContinuation.finish() }
    }

    /// Reads the input until it ends, one line event at a time, each waiting for room.
    private static func readLines(from input: Int32, limit: Int, into events: AsyncStream<LineEvent>.Continuation, room: DispatchSemaphore) {
        var lines = LineSplitter(limit: limit, skippingBlankLines: true)
        func emit(_ event: LineEvent) {
            room.wait()
            events.yield(event)
        }
        let failure = lines.read(from: input) { emit(.line($0)) }
        if let last = lines.finish() { emit(.line(last)) }
        emit(.end(failure: failure.map { String(cString: strerror($0)) }))
        events.finish()
    }

    // MARK: - Writing

    private func writeAnswer(_ answer: ErrorAnswer) {
        do {
            try writeLine(answer.json)
        } catch {
            logger.error("cannot answer the client: \(error)")
        }
    }

    /// Writes a message and its newline, all of it, with `SIGPIPE` held back so that a client
    /// that closed its end makes the write fail instead of ending the process.
    private func writeLine(_ message: Data) throws {
        try SpawnSetup.withoutPipeSignal { try writeAll(message) }
    }

    private func writeAll(_ message: Data) throws {
        let line = message + [UInt8(ascii: "\n")]
        var offset = 0
        while offset < line.count {
            let written = line.withUnsafeBytes { write(channel.output, $0.baseAddress! + offset, $0.count - offset) }
            if written >= 0 {
                offset += written
                continue
            }
            let failure = errno
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                var ready = pollfd(fd: channel.output, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO))
        }
    }

}

/// The members of an outgoing message that tell a request (`method` and `id`) from a
/// response (`id` alone).
private struct OutgoingEnvelope: Decodable {
    var id: ID?
    var method: String?
}

/// The answer to the server's questions still open when the client closed its input.
private struct ClosedInput: Method {
    static let name = ""
    typealias Parameters = Value
    typealias Result = Value
}

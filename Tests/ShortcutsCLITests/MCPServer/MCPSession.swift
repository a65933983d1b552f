import Foundation
import IntentKit
import ShortcutsTestSupport
import Synchronization

@testable import ShortcutsCLI

/// A `shortcuts mcp` server run in the test's process over two pipes, and the client's ends of
/// them: lines go in, answers come out, each wait bounded and ended by the answer itself.
///
/// ```swift
/// let session = try MCPSession()
/// try await session.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
/// let answer = try await session.answer()   // ["jsonrpc": "2.0", "id": 1, "result": [:]]
/// try await session.end()
/// ```
final class MCPSession: Sendable {
    /// The bound on any one wait: an answer that does not come is a hang, whatever the load
    /// (answers take milliseconds on an idle machine, seconds on one whose cores are busy).
    static let patience: Duration = .seconds(120)

    private let toServer: Int32
    private let fromServer: Int32
    private let serverEnds: (input: Int32, output: Int32)
    private let serving: Task<Void, any Error>
    /// What the server wrote and no answer took yet, and how much of it holds no newline.
    private let unread = Mutex((bytes: [UInt8](), scanned: 0))
    /// The descriptors still to close; the server's once it stopped serving.
    private let open: Mutex<Set<Int32>>

    /// Starts a server with the ``EchoApp``'s tools.
    init() throws {
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&answers) == 0 else { throw POSIXError(.EMFILE) }
        for descriptor in requests + answers { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        toServer = requests[1]
        fromServer = answers[0]
        serverEnds = (requests[0], answers[1])
        open = Mutex([requests[1], answers[0]])
        let server = ToolServer(
            catalog: IntentCatalog(apps: [EchoApp.app]), locale: "en", workflowsFolder: nil, filter: ToolFilter(allow: [], deny: []))
        let channel = ProtocolChannel(input: requests[0], output: answers[1])
        serving = Task.detached { try await server.serve(on: channel) }
    }

    deinit {
        for descriptor in open.withLock({ $0 }) { close(descriptor) }
    }

    private func closeOnce(_ descriptor: Int32) {
        if open.withLock({ $0.remove(descriptor) }) != nil { close(descriptor) }
    }

    /// Writes one line: the text and a newline.
    func send(_ line: String) async throws {
        try await send(Data(line.utf8) + [0x0A])
    }

    /// Writes bytes as they are, newlines included or not.
    func send(_ bytes: Data) async throws {
        let descriptor = toServer
        try await detached {
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    guard written >= 0 else {
                        if errno == EINTR { continue }
                        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    }
                    offset += written
                }
            }
        }
    }

    /// The next answer line, decoded, or `nil` when none comes within `patience` or the server's
    /// output ends.
    func answer(within patience: Duration = MCPSession.patience) async throws -> [String: Any]? {
        guard let line = try await answerLine(within: patience) else { return nil }
        return try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? ["not an object": String(decoding: line, as: UTF8.self)]
    }

    /// The next answer line as written, without its newline.
    func answerLine(within patience: Duration = MCPSession.patience) async throws -> Data? {
        let descriptor = fromServer
        let deadline = ContinuousClock.now + patience
        return try await detached { [self] in
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                // Each byte is looked at once, so a long answer is read in linear time.
                let line = self.unread.withLock { pending -> Data? in
                    guard let newline = pending.bytes[pending.scanned...].firstIndex(of: 0x0A) else {
                        pending.scanned = pending.bytes.count
                        return nil
                    }
                    let line = Data(pending.bytes[..<newline])
                    pending = (Array(pending.bytes[(newline + 1)...]), 0)
                    return line
                }
                if let line { return line }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return nil }
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                guard poll(&ready, 1, milliseconds) > 0 else { continue }
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return nil }
                self.unread.withLock { $0.bytes.append(contentsOf: chunk[..<count]) }
            }
        }
    }

    /// Closes the server's input, waits until it stops serving (it answers what it read first),
    /// and returns the answers it wrote that were not read yet.
    ///
    /// - Returns: The answers, and whether the server stopped within `patience`.
    @discardableResult
    func end(within patience: Duration = MCPSession.patience) async throws -> (answers: [[String: Any]], stopped: Bool) {
        closeOnce(toServer)
        let serving = serving
        let stopped = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumed = Mutex(false)
            let resume = { @Sendable (stopped: Bool) in
                let isFirst = resumed.withLock { done in
                    defer { done = true }
                    return !done
                }
                if isFirst { continuation.resume(returning: stopped) }
            }
            let bound = Task {
                // Wall time: the patience for a server that never ends; a session that ends wakes the wait at once.
                guard (try? await Task.sleep(for: patience)) != nil else { return }
                resume(false)
            }
            Task {
                _ = try? await serving.value
                bound.cancel()
                resume(true)
            }
        }
        guard stopped else { return ([], false) }
        // The server is done with its ends: once its output closes, reading ends.
        open.withLock { $0.formUnion([serverEnds.input, serverEnds.output]) }
        closeOnce(serverEnds.input)
        closeOnce(serverEnds.output)
        var answers: [[String: Any]] = []
        while let answer = try await answer(within: patience) { answers.append(answer) }
        return (answers, true)
    }
}

extension MCPSession {
    /// Opens the session as a client does: `initialize`, then `notifications/initialized`.
    ///
    /// - Parameter elicitation: Whether the client says it answers form elicitations.
    /// - Returns: The answer to `initialize`.
    @discardableResult
    func initialize(elicitation: Bool = false) async throws -> [String: Any]? {
        let capabilities = elicitation ? #"{"elicitation":{"form":{}}}"# : "{}"
        try await send(
            #"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":\#(capabilities),"#
                + #""clientInfo":{"name":"tests","version":"1.0"}}}"#)
        let answer = try await answer()
        try await send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        return answer
    }
}

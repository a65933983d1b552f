import Foundation

/// A running `shortcuts extension serve`, spoken to as the engine speaks to it: JSON-RPC
/// messages, one per line, over pipes.
///
/// Every wait is bounded; the process is killed when the session is released.
///
/// ```swift
/// let session = try ExtensionSession(shortcuts)
/// let answer = try session.call(1, "initialize", ["protocolVersions": [1], "locale": "en"])
/// ```
final class ExtensionSession: @unchecked Sendable {
    /// A message that did not come in time, or a process that did not end.
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorFile: URL
    private let condition = NSCondition()
    private var received: [String] = []
    private var unread: [[String: Any]] = []
    private var outputEnded = false

    /// Starts the binary's `extension serve` in the binary's `$SHORTCUTS_HOME`.
    init(_ shortcuts: ShortcutsBinary, arguments: [String] = ["extension", "serve"]) throws {
        process.executableURL = shortcuts.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        process.environment = environment
        process.currentDirectoryURL = PackagePaths.root
        errorFile = TemporaryFolder.unusedPath(prefix: "extension-stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let reader = Thread { [self] in readOutput() }
        reader.start()
    }

    deinit {
        if process.isRunning {
            // Programs an intent started lead process groups of their own: end them too.
            for child in children { kill(-child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// Every line the extension wrote to standard output so far.
    var lines: [String] { condition.withLock { received } }

    /// What the extension wrote to standard error.
    var standardError: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The processes the extension started that still run.
    var children: [Int32] {
        let id = process.processIdentifier
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(id)/task")) ?? []
        return tasks.flatMap { task in
            let listed = (try? String(contentsOfFile: "/proc/\(id)/task/\(task)/children", encoding: .utf8)) ?? ""
            return listed.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        }
    }

    /// Writes a message.
    func send(_ message: [String: Any]) throws {
        var object = message
        object["jsonrpc"] = "2.0"
        try sendLine(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// Writes a line as it is.
    func sendLine(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sends a request and waits for its answer.
    func call(_ id: Int, _ method: String, _ params: [String: Any], timeout: Double = 10) throws -> [String: Any] {
        try send(["id": id, "method": method, "params": params])
        return try response(to: id, timeout: timeout)
    }

    /// The next message (in order) that is the answer to request `id`.
    func response(to id: Int, timeout: Double = 10) throws -> [String: Any] {
        try next(timeout: timeout, "an answer to request \(id)") { $0["method"] == nil && ($0["id"] as? Int) == id }
    }

    /// The next request (or notification) the extension sends with this method.
    func request(_ method: String, timeout: Double = 10) throws -> [String: Any] {
        try next(timeout: timeout, "a \(method) request") { $0["method"] as? String == method }
    }

    /// Answers a request the extension sent.
    func answer(_ request: [String: Any], result: Any) throws {
        try send(["id": request["id"] ?? NSNull(), "result": result])
    }

    /// Answers a request the extension sent with an error.
    func answer(_ request: [String: Any], errorCode: Int, message: String, data: [String: Any]? = nil) throws {
        var error: [String: Any] = ["code": errorCode, "message": message]
        if let data { error["data"] = data }
        try send(["id": request["id"] ?? NSNull(), "error": error])
    }

    /// Closes the extension's standard input.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Waits for the process to end.
    ///
    /// - Returns: Its exit status.
    /// - Throws: ``Timeout`` when it is still running after `timeout` seconds (it is then killed).
    func waitForExit(timeout: Double = 10) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Timeout(description: "the extension still ran after \(timeout) seconds")
        }
        return process.terminationStatus
    }

    /// The next answer with id `null` (to a line that could not be read as a request).
    func answerWithoutID(timeout: Double = 10) throws -> [String: Any] {
        try next(timeout: timeout, "an answer with id null") { $0["method"] == nil && $0["id"] is NSNull }
    }

    private func next(timeout: Double, _ what: String, where matches: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = unread.firstIndex(where: matches) { return unread.remove(at: index) }
            if outputEnded { throw Timeout(description: "the extension's output ended before \(what); stderr: \(standardError)") }
            if !condition.wait(until: deadline) {
                throw Timeout(description: "no \(what) within \(timeout) seconds; received \(received)")
            }
        }
    }

    private func readOutput() {
        let handle = output.fileHandleForReading
        var pending = Data()
        while true {
            let chunk = handle.availableData
            pending += chunk
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[pending.index(after: newline)...])
                let message = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                condition.withLock {
                    received.append(line)
                    unread.append(message ?? ["unreadable": line])
                    condition.broadcast()
                }
            }
            if chunk.isEmpty { break }
        }
        condition.withLock {
            outputEnded = true
            condition.broadcast()
        }
    }
}

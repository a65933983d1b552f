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
    /// A message that did not come, or a process that did not end.
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private let program: BackgroundProgram
    private let lock = NSLock()
    /// How many of the lines written so far have been read into ``unread``.
    private var linesRead = 0
    private var unread: [[String: Any]] = []

    /// Starts the binary's `extension serve` in the binary's `$SHORTCUTS_HOME`.
    init(_ shortcuts: ShortcutsBinary, arguments: [String] = ["extension", "serve"]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        program = try BackgroundProgram(executable: shortcuts.executable.path, arguments: arguments, input: .pipe, environment: environment)
    }

    deinit {
        if program.isRunning {
            // Programs an intent started lead process groups of their own: end them too.
            for child in children { kill(-child, SIGKILL) }
        }
    }

    /// Every line the extension wrote to standard output so far.
    var lines: [String] { Self.completeLines(program.outputSoFar) }

    /// What the extension wrote to standard error.
    var standardError: String { program.errorSoFar }

    /// The processes the extension started that still run.
    var children: [Int32] {
        let id = program.pid
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
        try program.write(line + "\n")
    }

    /// Sends a request and waits for its answer.
    func call(_ id: Int, _ method: String, _ params: [String: Any]) throws -> [String: Any] {
        try send(["id": id, "method": method, "params": params])
        return try response(to: id)
    }

    /// The next message (in order) that is the answer to request `id`.
    func response(to id: Int) throws -> [String: Any] {
        try next("an answer to request \(id)") { $0["method"] == nil && ($0["id"] as? Int) == id }
    }

    /// The next request (or notification) the extension sends with this method.
    func request(_ method: String) throws -> [String: Any] {
        try next("a \(method) request") { $0["method"] as? String == method }
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
        program.closeInput()
    }

    /// Waits, woken by its end, for the process to end.
    ///
    /// - Returns: Its exit status.
    /// - Throws: ``Timeout`` when it still runs after the patience (it is then killed).
    func waitForExit() throws -> Int32 {
        do {
            return try program.waitForExit(patience: 60).status
        } catch {
            throw Timeout(description: "the extension \(error)")
        }
    }

    /// The next answer with id `null` (to a line that could not be read as a request).
    func answerWithoutID() throws -> [String: Any] {
        try next("an answer with id null") { $0["method"] == nil && $0["id"] is NSNull }
    }

    /// Waits, woken by each write to the extension's output, for the first unread message that
    /// matches, and takes it.
    private func next(_ what: String, where matches: ([String: Any]) -> Bool) throws -> [String: Any] {
        var found: [String: Any]?
        let held = try eventuallyBlocking(watching: [.folder(program.capture), .exit(program.pid)], patience: 60) {
            // Whether it still ran before its output was read: what a program that ended wrote is
            // all in the file.
            let running = program.isRunning
            lock.lock()
            defer { lock.unlock() }
            let all = lines
            for line in all.dropFirst(linesRead) {
                let message = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                unread.append(message ?? ["unreadable": line])
            }
            linesRead = all.count
            if let index = unread.firstIndex(where: matches) {
                found = unread.remove(at: index)
                return true
            }
            return !running
        }
        if let found { return found }
        if held { throw Timeout(description: "the extension's output ended before \(what); stderr: \(standardError)") }
        throw Timeout(description: "no \(what) came; received \(lines)")
    }

    private static func completeLines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()  // what follows the last newline is not a whole line yet
        return parts
    }
}

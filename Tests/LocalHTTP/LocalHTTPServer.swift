import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on `127.0.0.1`, on a port the system chooses, for tests and
/// benchmarks that need something to fetch.
///
/// Each route is a closure from the request to the response; a path with no route answers
/// 404. Connections are kept alive between requests and each is served on its own thread, so a
/// response that never comes blocks only its own client. The server stops when ``stop()`` is
/// called or when it is released.
///
/// ```swift
/// let server = try LocalHTTPServer(routes: [
///     "/digest": { _ in .json(#"{"headline": "Rain later"}"#) },
///     "/slow": { _ in .text("late").delayed(by: .seconds(2)) },
///     "/hang": { _ in .never },
///     "/echo": { request in .echo(request) },
/// ])
/// defer { server.stop() }
/// let url = server.url("/digest")   // http://127.0.0.1:41234/digest
/// ```
public final class LocalHTTPServer: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (Request) -> Response

    /// The port the server listens on.
    public let port: UInt16

    private let handler: Handler
    private let listener: Int32
    private let state = Mutex(State())
    private let stopSignal = StopSignal()

    private struct State {
        var isStopped = false
        var connections: Set<Int32> = []
        var requests: [Request] = []
    }

    /// Starts a server whose routes are exact paths (the query is not part of the path).
    ///
    /// ```swift
    /// let server = try LocalHTTPServer(routes: ["/missing": { _ in .status(404, "no such page") }])
    /// ```
    ///
    /// - Parameter routes: A handler for each path; other paths answer 404.
    /// - Throws: ``LocalHTTPServer/StartError`` when the socket cannot be opened.
    public convenience init(routes: [String: Handler]) throws {
        try self.init { request in
            guard let route = routes[request.path] else { return .status(404, "no route for \(request.path)") }
            return route(request)
        }
    }

    /// Starts a server that answers every request with one handler.
    ///
    /// ```swift
    /// let server = try LocalHTTPServer { request in .echo(request) }
    /// ```
    ///
    /// - Parameter handler: Answers each request.
    /// - Throws: ``LocalHTTPServer/StartError`` when the socket cannot be opened.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        listener = try Self.openListeningSocket()
        port = Self.boundPort(of: listener)
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "LocalHTTPServer \(port)"
        thread.start()
    }

    deinit { stop() }

    /// The server's address with a path and an optional query.
    ///
    /// ```swift
    /// server.url("/search?q=swift")   // http://127.0.0.1:41234/search?q=swift
    /// ```
    ///
    /// - Parameter path: A path starting with `/`, with an optional `?query`.
    /// - Returns: The URL.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The requests received so far, in the order they arrived.
    public var requests: [Request] {
        state.withLock { $0.requests }
    }

    /// Stops listening and ends every open connection, including those waiting on a response
    /// that never comes. Calling it again does nothing.
    public func stop() {
        let open: Set<Int32>? = state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            return state.connections
        }
        guard let open else { return }
        stopSignal.signal()
        // Shutting a socket down wakes the thread blocked on it, which then closes it.
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for connection in open { _ = shutdown(connection, Int32(SHUT_RDWR)) }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// The system call that failed.
        public var call: String
        /// The system's error text.
        public var reason: String

        public var description: String { "cannot start the local HTTP server: \(call) failed: \(reason)" }
    }

    private static func openListeningSocket() throws -> Int32 {
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)
        #else
            let socketType = SOCK_STREAM
        #endif
        let listener = socket(AF_INET, socketType, 0)
        guard listener >= 0 else { throw StartError(call: "socket", reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw StartError(call: "bind", reason: reason)
        }
        return listener
    }

    private static func boundPort(of listener: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let accepted = state.withLock { state in
                guard !state.isStopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            var noDelay: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread { [self] in
                serve(HTTPConnection(socket: connection))
                state.withLock { _ = $0.connections.remove(connection) }
                close(connection)
            }
            thread.start()
        }
        close(listener)
    }

    private func serve(_ connection: HTTPConnection) {
        while let request = connection.readRequest() {
            state.withLock { $0.requests.append(request) }
            let response = handler(request)
            if response.neverAnswers {
                stopSignal.wait(seconds: nil)
                return
            }
            if response.delay > .zero, stopSignal.wait(seconds: Self.seconds(response.delay)) { return }
            guard connection.write(response, toHEAD: request.method == "HEAD") else { return }
            if !response.sendsContentLength || request.headers["connection"]?.lowercased() == "close" { return }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Wakes every thread waiting for the server to stop.
private final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var isSignalled = false

    func signal() {
        condition.lock()
        isSignalled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until signalled or the time is up; returns whether it was signalled.
    func wait(seconds: Double?) -> Bool {
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) }
        condition.lock()
        defer { condition.unlock() }
        while !isSignalled {
            if let deadline {
                if !condition.wait(until: deadline) { return isSignalled }
            } else {
                condition.wait()
            }
        }
        return true
    }
}

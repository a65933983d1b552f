import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection to a D-Bus message bus over its unix socket: `AUTH EXTERNAL` with the user's
/// id, `Hello`, then method calls and their replies.
///
/// It speaks the little-endian wire format, without unix file descriptors; every read and
/// write waits at most `timeout`, so a bus that hangs fails the call instead of the run.
///
/// ```swift
/// let bus = try DBusConnection.sessionBus()
/// let reply = try bus.call(.methodCall(
///     destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
///     interface: "org.freedesktop.DBus", member: "GetId"))
/// reply.body.first?.text   // the bus's id
/// ```
package final class DBusConnection {
    /// The name the bus gave this connection in its reply to `Hello`, such as `:1.42`.
    package private(set) var uniqueName = ""
    /// The longest wait, in seconds, for each read or write.
    package var timeout: Double {
        didSet { Self.apply(timeout: timeout, to: socket) }
    }
    private let socket: Int32
    private var received: [UInt8] = []
    private var lastSerial: UInt32 = 0

    /// Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS`.
    ///
    /// - Parameters:
    ///   - environment: The variables to read the address from (the process's own by default).
    ///   - timeout: The longest wait, in seconds, for each read or write.
    /// - Throws: ``DBusError/noSessionBus`` when the variable is unset or empty, else as
    ///   ``init(address:timeout:)``.
    package static func sessionBus(
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double = 5
    ) throws -> DBusConnection {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { throw DBusError.noSessionBus }
        return try DBusConnection(address: address, timeout: timeout)
    }

    /// Connects, authenticates and says `Hello` to the bus at `address`.
    ///
    /// - Parameters:
    ///   - address: A D-Bus address such as `unix:path=/run/user/1000/bus`; its alternatives
    ///     are tried in order.
    ///   - timeout: The longest wait, in seconds, for each read or write.
    /// - Throws: A ``DBusError`` saying which step failed.
    package init(address: String, timeout: Double = 5) throws {
        self.timeout = timeout
        var lastFailure = DBusError.unsupportedAddress(address)
        var connected: Int32 = -1
        for candidate in try DBusAddress.sockets(in: address) {
            do {
                connected = try Self.connect(to: candidate, timeout: timeout)
                break
            } catch let error as DBusError {
                lastFailure = error
            }
        }
        guard connected >= 0 else { throw lastFailure }
        socket = connected
        try authenticate()
        let hello = try call(
            .methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello"))
        uniqueName = hello.body.first?.text ?? ""
    }

    deinit {
        close(socket)
    }

    /// Sends a message with the next serial.
    ///
    /// - Parameter message: The message; its ``DBusMessage/serial`` is ignored.
    /// - Returns: The serial it was sent with, which its reply names.
    /// - Throws: ``DBusError`` when the socket fails or the write times out.
    @discardableResult
    package func send(_ message: DBusMessage) throws -> UInt32 {
        lastSerial += 1
        try write(message.encoded(serial: lastSerial))
        return lastSerial
    }

    /// Waits for the next message from the bus.
    ///
    /// - Returns: The message: a call, a reply, an error or a signal.
    /// - Throws: ``DBusError/timedOut(seconds:)`` when none comes in time, ``DBusError/closed``
    ///   when the bus hangs up.
    package func receive() throws -> DBusMessage {
        try fill(atLeast: 16)
        let total = try DBusMessage.length(ofMessageStartingWith: Array(received.prefix(16)))
        try fill(atLeast: total)
        let bytes = Array(received.prefix(total))
        received.removeFirst(total)
        return try DBusMessage(bytes: bytes)
    }

    /// Calls a method and waits for its reply, setting aside the signals and calls that come
    /// before it.
    ///
    /// - Parameter message: A method call.
    /// - Returns: The method's return message.
    /// - Throws: ``DBusError/remote(name:message:)`` when the peer answers with an error,
    ///   else as ``send(_:)`` and ``receive()``.
    @discardableResult
    package func call(_ message: DBusMessage) throws -> DBusMessage {
        let serial = try send(message)
        while true {
            let reply = try receive()
            guard reply.replySerial == serial else { continue }
            if reply.kind == .error {
                throw DBusError.remote(name: reply.errorName ?? "an error", message: reply.body.first?.text ?? "")
            }
            return reply
        }
    }

    // MARK: Socket

    private static func connect(to address: DBusAddress, timeout: Double) throws -> Int32 {
        let description =
            switch address {
            case .path(let path): "unix:path=\(path)"
            case .abstract(let name): "unix:abstract=\(name)"
            }
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw DBusError.cannotConnect(address: description, reason: String(cString: strerror(errno))) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let pathBytes: [UInt8] =
            switch address {
            case .path(let path): Array(path.utf8)
            case .abstract(let name): [0] + Array(name.utf8)
            }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard pathBytes.count < capacity else {
            close(descriptor)
            throw DBusError.cannotConnect(address: description, reason: "the socket's path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count)
        apply(timeout: timeout, to: descriptor)
        let result = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(descriptor, $0, length)
                #else
                    Darwin.connect(descriptor, $0, length)
                #endif
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw DBusError.cannotConnect(address: description, reason: reason)
        }
        return descriptor
    }

    private static func apply(timeout: Double, to descriptor: Int32) {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: .init(timeout.truncatingRemainder(dividingBy: 1) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, flags) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw DBusError.timedOut(seconds: timeout) }
                throw DBusError.cannotConnect(address: "the bus", reason: String(cString: strerror(errno)))
            }
            sent += count
        }
    }

    private func fill(atLeast count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            let read = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if read < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw DBusError.timedOut(seconds: timeout) }
                throw DBusError.cannotConnect(address: "the bus", reason: String(cString: strerror(errno)))
            }
            if read == 0 { throw DBusError.closed }
            received += chunk[..<read]
        }
    }

    // MARK: Authentication

    /// The nul byte, `AUTH EXTERNAL <uid in hex>`, the bus's `OK`, then `BEGIN`.
    private func authenticate() throws {
        let uid = String(getuid())
        let hexUID = uid.utf8.map { String(format: "%02x", $0) }.joined()
        try write([0] + Array("AUTH EXTERNAL \(hexUID)\r\n".utf8))
        let answer = try readLine()
        guard answer.hasPrefix("OK ") else { throw DBusError.authenticationRejected(answer) }
        try write(Array("BEGIN\r\n".utf8))
    }

    private func readLine() throws -> String {
        while true {
            if let end = received.indices.dropLast().first(where: { received[$0] == 13 && received[$0 + 1] == 10 }) {
                let line = String(decoding: received[..<end], as: UTF8.self)
                received.removeFirst(end + 2)
                return line
            }
            guard received.count < 16_384 else { throw DBusError.malformed("an authentication line over 16 KiB") }
            try fill(atLeast: received.count + 1)
        }
    }
}

import Foundation
import IntentKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells systemd (a `Type=notify` service) how the daemon is doing: `READY=1` once it has
/// scheduled its automations, `RELOADING=1` on SIGHUP, `STOPPING=1` when it starts to stop.
///
/// systemd passes a unix datagram socket in `$NOTIFY_SOCKET` (a path, or an abstract name
/// starting with `@`); without it, nothing is sent.
///
/// ```swift
/// ServiceManagerNotification.send("READY=1")
/// ```
enum ServiceManagerNotification {
    /// Sends one state line to `$NOTIFY_SOCKET`, if set.
    ///
    /// - Parameter state: Such as `READY=1`.
    /// - Returns: Whether a datagram was sent.
    @discardableResult
    static func send(_ state: String, environment: [String: String] = ProcessEnvironment.current) -> Bool {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // an abstract socket name
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        #if canImport(Glibc)
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, message, message.count, 0, socketAddress, length)
            }
        }
        return sent == message.count
    }
}

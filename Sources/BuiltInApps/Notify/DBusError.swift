/// Why a D-Bus connection or call failed, in words.
///
/// ```swift
/// String(describing: DBusError.noSessionBus)
/// // "DBUS_SESSION_BUS_ADDRESS is not set (no desktop session)"
/// ```
package enum DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `DBUS_SESSION_BUS_ADDRESS` is unset or empty.
    case noSessionBus
    /// The address names no transport this client speaks (only `unix:path=` and `unix:abstract=`).
    case unsupportedAddress(String)
    /// The socket could not be opened or connected.
    case cannotConnect(address: String, reason: String)
    /// The bus refused `AUTH EXTERNAL`.
    case authenticationRejected(String)
    /// The bus sent bytes that break the wire format.
    case malformed(String)
    /// The peer answered with an error message.
    case remote(name: String, message: String)
    /// No answer came in time.
    case timedOut(seconds: Double)
    /// The bus closed the connection.
    case closed

    package var description: String {
        switch self {
        case .noSessionBus: "DBUS_SESSION_BUS_ADDRESS is not set (no desktop session)"
        case .unsupportedAddress(let address): "the bus address '\(address)' names no unix socket (only unix:path= and unix:abstract= are supported)"
        case .cannotConnect(let address, let reason): "cannot connect to the bus at '\(address)': \(reason)"
        case .authenticationRejected(let line): "the bus refused authentication: \(line)"
        case .malformed(let detail): "the bus sent a malformed message: \(detail)"
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .timedOut(let seconds): "the bus did not answer within \(seconds.formatted()) seconds"
        case .closed: "the bus closed the connection"
        }
    }
}

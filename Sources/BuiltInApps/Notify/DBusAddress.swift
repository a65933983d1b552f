/// A unix socket a D-Bus address names, such as `DBUS_SESSION_BUS_ADDRESS`.
///
/// An address is a list of alternatives separated by `;`, each a transport and `key=value`
/// pairs with `%`-escaped values: `unix:path=/run/user/1000/bus` or
/// `unix:abstract=/tmp/dbus-XXXX,guid=…`.
///
/// ```swift
/// try DBusAddress.sockets(in: "unix:path=/run/user/1000/bus")   // [.path("/run/user/1000/bus")]
/// ```
package enum DBusAddress: Sendable, Hashable {
    /// A socket file.
    case path(String)
    /// A socket in Linux's abstract namespace.
    case abstract(String)

    /// The sockets an address names, in the order to try them.
    ///
    /// - Parameter address: The address text.
    /// - Returns: One socket per `unix:` alternative with a `path` or `abstract` key.
    /// - Throws: ``DBusError/unsupportedAddress(_:)`` when there is none.
    package static func sockets(in address: String) throws -> [DBusAddress] {
        var sockets: [DBusAddress] = []
        for alternative in address.split(separator: ";") {
            guard alternative.hasPrefix("unix:") else { continue }
            var keys: [String: String] = [:]
            for pair in alternative.dropFirst("unix:".count).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                keys[String(pair[..<equals])] = unescape(pair[pair.index(after: equals)...])
            }
            if let path = keys["path"] {
                sockets.append(.path(path))
            } else if let name = keys["abstract"] {
                sockets.append(.abstract(name))
            }
        }
        guard !sockets.isEmpty else { throw DBusError.unsupportedAddress(address) }
        return sockets
    }

    private static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

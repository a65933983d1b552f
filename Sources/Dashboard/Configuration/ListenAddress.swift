import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the dashboard listens: a host (an IP address or a name) and a port.
///
/// Written `HOST:PORT` (`127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`), or a
/// port alone, which means the loopback address (`8080` is `127.0.0.1:8080`). Port 0 asks the
/// system for a free port.
///
/// ```swift
/// let address = try ListenAddress(parsing: "0.0.0.0:8080")
/// address.isLoopback   // false: other machines can connect, so a token is required
/// ```
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host: an IPv4 or IPv6 address, or a name.
    public var host: String
    /// The port, 0 for any free port.
    public var port: Int

    /// The address of the default dashboard: `127.0.0.1:8080`.
    public static let standard = ListenAddress(host: "127.0.0.1", port: 8080)

    /// An address from its parts.
    ///
    /// - Parameters:
    ///   - host: An IPv4 or IPv6 address (without brackets), or a name.
    ///   - port: The port, 0 for any free port.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads an address written `HOST:PORT`, `[IPV6]:PORT` or `PORT`.
    ///
    /// - Parameter text: The address as written.
    /// - Throws: ``DashboardError/invalidAddress(_:reason:)`` saying what is wrong with it.
    public init(parsing text: String) throws(DashboardError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var host: String
        var portText: Substring
        if trimmed.allSatisfy(\.isNumber), !trimmed.isEmpty {
            host = "127.0.0.1"
            portText = Substring(trimmed)
        } else if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]"), trimmed[trimmed.index(after: close)...].hasPrefix(":") else {
                throw .invalidAddress(text, reason: "an IPv6 address is written in brackets before the port, such as [::1]:8080")
            }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            portText = trimmed[trimmed.index(close, offsetBy: 2)...]
        } else {
            guard let colon = trimmed.lastIndex(of: ":") else {
                throw .invalidAddress(text, reason: "it has no port; write HOST:PORT, such as 127.0.0.1:8080")
            }
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
            if host.contains(":") {
                throw .invalidAddress(text, reason: "an IPv6 address is written in brackets before the port, such as [::1]:8080")
            }
        }
        guard !host.isEmpty else {
            throw .invalidAddress(text, reason: "it has no host; write 127.0.0.1:PORT for this machine only, or 0.0.0.0:PORT for every network")
        }
        guard let port = Int(portText), (0...65_535).contains(port), portText.allSatisfy(\.isNumber) else {
            throw .invalidAddress(text, reason: "'\(portText)' is not a port from 0 to 65535")
        }
        host = host.lowercased() == "localhost" ? "localhost" : host
        guard Self.isAddress(host) || Self.isHostName(host) else {
            throw .invalidAddress(text, reason: "'\(host)' is neither an IP address nor a host name")
        }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can connect: `localhost`, an address of 127.0.0.0/8, or `::1`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// `HOST:PORT`, with an IPv6 address in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    private static func isHostName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}

/// Why the dashboard cannot start: what is wrong, in words. The command line adds how to fix it
/// with its own options.
///
/// ```swift
/// do { try configuration.checkExposure() } catch { print(error) }
/// // 0.0.0.0:8080 is reachable from other machines, and no token protects the dashboard
/// ```
public enum DashboardError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The listen address as written cannot be read.
    case invalidAddress(String, reason: String)
    /// The address is reachable from other machines and no token is set.
    case exposedWithoutToken(ListenAddress)
    /// The token is shorter than the least length.
    case weakToken(length: Int, minimum: Int)
    /// The server cannot listen on the address.
    case cannotListen(ListenAddress, reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason):
            "invalid listen address '\(text)': \(reason)"
        case .exposedWithoutToken(let address):
            "\(address) is reachable from other machines, and no token protects the dashboard: anyone who reaches the port "
                + "could read the run history and start workflows"
        case .weakToken(let length, let minimum):
            "the token has \(length) characters; a token that protects the dashboard needs at least \(minimum)"
        case .cannotListen(let address, let reason):
            "cannot listen on \(address): \(reason)"
        }
    }
}

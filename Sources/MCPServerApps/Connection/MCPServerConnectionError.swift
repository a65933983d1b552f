import Foundation

/// Why talking to an MCP server failed, with the server's name and what it was doing.
///
/// ```
/// MCP server 'weather' exited with status 1 while calling 'forecast': Traceback (most recent call last): …
/// ```
package enum MCPServerConnectionError: Error, Sendable, CustomStringConvertible {
    /// The server could not be started.
    case cannotStart(server: String, reason: String)
    /// The server ended while the engine waited for it.
    case exited(server: String, termination: String, activity: String, standardError: String)
    /// The server did not answer `initialize` in time.
    case startTimedOut(server: String, seconds: Int, standardError: String)
    /// The server answered with a JSON-RPC error.
    case failed(server: String, activity: String, message: String)
    /// The tool reported an error (`isError`): its text.
    case toolError(server: String, tool: String, message: String)
    /// The server wrote a line longer than the longest message read (`limit` bytes); it was ended.
    case lineTooLong(server: String, limit: Int, activity: String)
    /// The server's standard input is closed.
    case closed

    package var description: String {
        switch self {
        case .cannotStart(let server, let reason):
            return "MCP server '\(server)': \(reason)"
        case .exited(let server, let termination, let activity, let standardError):
            return "MCP server '\(server)' \(termination) while \(activity)" + Self.quoting(standardError)
        case .startTimedOut(let server, let seconds, let standardError):
            return "MCP server '\(server)' did not answer 'initialize' within \(seconds) second\(seconds == 1 ? "" : "s")"
                + Self.quoting(standardError)
        case .failed(let server, let activity, let message):
            return "MCP server '\(server)' failed while \(activity): \(message)"
        case .toolError(let server, let tool, let message):
            return "tool '\(tool)' of MCP server '\(server)' failed: \(message)"
        case .lineTooLong(let server, let limit, let activity):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return "MCP server '\(server)' wrote a line longer than the limit of \(size) while \(activity); "
                + "it was stopped and starts again on the next call"
        case .closed:
            return "the MCP server no longer reads its input"
        }
    }

    /// The last lines of the server's standard error, after a colon.
    private static func quoting(_ standardError: String) -> String {
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: true).suffix(5)
        return lines.isEmpty ? "" : ":\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}

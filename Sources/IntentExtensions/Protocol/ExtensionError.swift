import Foundation

/// What went wrong with an extension, in words that name it.
///
/// ```swift
/// ExtensionError.exited(extension: "Greeter", termination: .signaled(11), activity: "performing Greet").description
/// // extension Greeter exited with signal 11 while performing Greet
/// ```
public enum ExtensionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extension's program could not be started.
    case cannotStart(extension: String, reason: String)
    /// The process ended while a request was waiting for its answer.
    case exited(extension: String, termination: ProcessTermination, activity: String?)
    /// The extension wrote something the protocol does not allow; it was ended.
    case protocolViolation(extension: String, reason: String)
    /// The extension and the engine share no protocol version.
    case unsupportedVersion(extension: String, supported: [Int])
    /// An intent or query of the extension failed (error -32000): its message, in the request's locale.
    case failed(extension: String, message: String)
    /// The extension answered a request with another JSON-RPC error.
    case errorResponse(extension: String, activity: String, code: Int, message: String)
    /// The extension did not stop within the grace period after a cancellation, and was ended.
    case unresponsive(extension: String, activity: String)
    /// The extension did not answer a request in time, and was ended.
    case noAnswer(extension: String, method: String, timeout: Duration)
    /// The extension was stopped (idle, or the engine exiting) while a request waited.
    case stopped(extension: String)
    /// Another of these errors, with the last lines the extension wrote to standard error while
    /// the request ran: a Python traceback, a panic's message.
    indirect case withStandardError(ExtensionError, lines: [String])

    /// The error without the standard error's lines.
    public var withoutStandardError: ExtensionError {
        if case .withStandardError(let error, _) = self { return error.withoutStandardError }
        return self
    }

    public var description: String {
        switch self {
        case .cannotStart(let name, let reason):
            "extension \(name) cannot start: \(reason)"
        case .exited(let name, let termination, let activity):
            "extension \(name) \(termination)" + (activity.map { " while \($0)" } ?? "")
        case .protocolViolation(let name, let reason):
            "protocol error: extension \(name) \(reason); it was stopped and starts again on next use"
        case .unsupportedVersion(let name, let supported):
            "extension \(name) speaks protocol version \(supported.map(String.init).joined(separator: ", ")), "
                + "this engine speaks \(ExtensionConnection.protocolVersions.map(String.init).joined(separator: ", "))"
        case .failed(_, let message):
            message
        case .errorResponse(let name, let activity, let code, let message):
            "extension \(name) failed while \(activity): \(message) (error \(code))"
        case .unresponsive(let name, let activity):
            "extension \(name) did not stop \(activity) when cancelled, and was ended"
        case .noAnswer(let name, let method, let timeout):
            "extension \(name) did not answer \(method) within \(timeout), and was ended"
        case .stopped(let name):
            "extension \(name) was stopped"
        case .withStandardError(let error, let lines):
            "\(error)\nwhat it wrote to standard error:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        }
    }
}

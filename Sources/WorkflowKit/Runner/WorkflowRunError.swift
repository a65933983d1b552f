import Foundation
import IntentKit

/// Why a run stopped with an error: what went wrong, at which step's location.
public struct WorkflowRunError: Error, CustomStringConvertible, Sendable {
    /// The located diagnostic.
    public var diagnostic: Diagnostic
    /// The sources of the files involved, to render excerpts.
    public var sources: [String: String]
    /// The intent or interaction error the run stopped on, if any, so a tool can add how to
    /// avoid it on its own interface (such as answering a question in advance).
    public var cause: (any Error & Sendable)?

    init(
        _ message: String, at location: SourceLocation, help: String? = nil, sources: [String: String] = [:],
        cause: (any Error & Sendable)? = nil
    ) {
        diagnostic = .error(message, at: location, help: help)
        self.sources = sources
        self.cause = cause
    }

    /// The error in the compiler style, with the source line and a caret.
    public func rendered() -> String {
        DiagnosticRenderer(sources: sources).render(diagnostic)
    }

    public var description: String { rendered() }
}

/// A run that was cancelled (Ctrl-C, or a caller's task cancellation).
public struct WorkflowCancelled: Error, CustomStringConvertible, Sendable {
    public var description: String { "the run was cancelled" }
}

/// A run stopped because it ran longer than its runner's ``WorkflowRunner/timeout`` (an
/// automation's `timeout:`); the history records it as failed with this text.
public struct WorkflowTimedOut: Error, CustomStringConvertible, Sendable {
    /// The timeout that passed.
    public var limit: Duration

    public var description: String { "timed out after \(DurationSyntax.describe(limit)) (automation timeout)" }
}

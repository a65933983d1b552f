import Foundation
import IntentKit

/// What one step of a run did: where it is, what it received and produced, how long it took
/// and how it failed.
public struct StepTrace: Sendable {
    /// The step's kind keyword (`perform`, `find`, ...).
    public var kind: String
    /// The step's `id`, if it has one.
    public var stepID: String?
    /// Where the step is written.
    public var location: SourceLocation
    /// How deep the step is nested (0 for top-level steps).
    public var depth: Int
    /// The values the step received (parameters, conditions, the list filtered...).
    public var inputs: [String: IntentValue]
    /// The step's output.
    public var output: IntentValue?
    /// What the step said (an intent's dialog, a `show` text).
    public var dialog: String?
    /// When the step started.
    public var startedAt: Date
    /// How long the step took.
    public var duration: Duration
    /// The error the step stopped with.
    public var error: String?
    /// What the step's intent recorded about what it did (a command's `status`, `stderr` and
    /// `duration`), whether it succeeded or failed.
    public var details: [String: IntentValue] = [:]
    /// For the record that opens a branch of `parallel` (kind `branch`) or a pass of a
    /// concurrent `repeat` (kind `pass`): its number, counting from 1. The branch's steps follow
    /// it, one level deeper, before the next branch.
    public var branch: Int? = nil
}

/// The result of a run: its output, what it showed, and the trace of every step.
public struct WorkflowRunResult: Sendable {
    /// The run's identifier in the history, when it was recorded.
    public var runID: String?
    /// The workflow's output (`output:` or a `stop` step's value).
    public var output: IntentValue
    /// The trace of every step that ran, in order.
    public var steps: [StepTrace]
}

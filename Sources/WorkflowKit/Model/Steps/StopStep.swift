/// `stop:` — ends the workflow; `stop: value` ends it with that output.
///
/// ```yaml
/// - stop: Nothing found
/// ```
///
/// ```swift
/// if case .stop(let stop) = step.kind, let output = stop.output { finish(with: output) }
/// ```
public struct StopStep: Sendable, Hashable {
    /// The workflow's output, or `nil` for none (`stop:` or `stop: null`).
    public var output: ValueNode?
}

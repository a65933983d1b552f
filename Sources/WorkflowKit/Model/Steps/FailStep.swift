/// `fail:` — ends the run as failed, with a message and, optionally, data for its record.
///
/// It fails like any step that fails: `finally:` blocks still run, a `try:` around it catches
/// it (`${error.message}` is the message), the workflow's `onFailure:` runs, and `shortcuts run`
/// exits with status 1. Written in a `catch:` after cleaning up, it ends the run as failed
/// instead of succeeded.
///
/// ```yaml
/// - try: [ { perform: Shell.RunScript, with: { script: "tar czf backup.tgz ~/notes" } } ]
///   catch:
///     - perform: Files.Delete
///       with: { path: backup.tgz }
///     - fail: "the backup failed: ${error.message}"
///       data: ${error}
/// ```
///
/// ```swift
/// if case .fail(let fail) = step.kind { print(fail.message) }
/// ```
public struct FailStep: Sendable, Hashable {
    /// The message the run fails with: text, possibly with `${…}`.
    public var message: ValueNode
    /// A value recorded with the failure in the step's trace (`data:`), or `nil`.
    public var data: ValueNode?
}

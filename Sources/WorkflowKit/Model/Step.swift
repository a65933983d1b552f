/// One step of a workflow: an optional id and exactly one kind.
///
/// A step is a mapping with one kind key (`perform`, `find`, `filter`, `show`, `set`,
/// `append`, `if`, `repeat`, `menu`, `ask`, `run`, `wait`, `stop`, `comment`, `search`,
/// `break`, `continue` or `try`),
/// the keys that kind accepts, and optionally `id:`, which names the step's output for
/// later `${id}` references. Ids are unique in the whole file, nested steps included.
///
/// ```swift
/// for step in workflow.steps {
///     print(step.id?.value ?? "-", step.kind.keyword, step.location)
/// }
/// ```
public struct Step: Sendable, Hashable {
    /// The name of the step's output, if given.
    public var id: Located<String>?
    /// What the step does.
    public var kind: StepKind
    /// Where the step's kind key (such as `perform`) is written.
    public var location: SourceLocation
    /// `continueOnError: true`: when the step fails, the run goes on with its output `null` and
    /// `${id.error}` holding the error (`message`, `step`, `location`); `null` when it succeeded.
    public var continueOnError = false
    /// `timeout: 30s`: how long the step may take; past it the step is cancelled (an intent, an
    /// extension's or MCP server's call, a nested workflow, the steps of a loop) and fails at the
    /// timeout, which `continueOnError` and `try:` handle like any failure. `nil`: no limit.
    public var timeout: Located<Duration>? = nil
}

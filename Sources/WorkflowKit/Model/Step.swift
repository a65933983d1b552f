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

extension Step {
    /// The steps inside this one (`then:` and `else:`, a loop's, a menu's options', the
    /// branches of `parallel:`, `try:` with its `catch:` and `finally:`), in file order, without
    /// their own nested steps.
    public var innerSteps: [Step] {
        switch kind {
        case .if(let branch): return branch.thenSteps + branch.elseSteps
        case .repeat(let loop): return loop.steps
        case .menu(let menu): return menu.options.flatMap(\.steps)
        case .parallel(let parallel): return parallel.branches.flatMap(\.steps)
        case .try(let block): return block.steps + (block.catchSteps ?? []) + (block.finallySteps ?? [])
        default: return []
        }
    }

    /// Steps and every step nested in them, each before the steps inside it, in file order.
    ///
    /// ```swift
    /// let performed = Step.flattened(workflow.steps).compactMap { step -> String? in
    ///     if case .perform(let perform) = step.kind { return perform.intent.description }
    ///     return nil
    /// }
    /// ```
    public static func flattened(_ steps: [Step]) -> [Step] {
        steps.flatMap { [$0] + flattened($0.innerSteps) }
    }
}

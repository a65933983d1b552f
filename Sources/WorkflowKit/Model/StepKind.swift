/// What a step does, with the settings of that kind.
///
/// ```swift
/// switch step.kind {
/// case .perform(let perform): print("perform", perform.intent)
/// case .if(let branch): print("if with", branch.thenSteps.count, "steps")
/// default: print(step.kind.keyword)
/// }
/// ```
public enum StepKind: Sendable, Hashable {
    /// `perform:` runs an app intent.
    case perform(PerformStep)
    /// `find:` queries an app's entities.
    case find(FindStep)
    /// `filter:` keeps the matching elements of a list.
    case filter(FilterStep)
    /// `show:` displays a value.
    case show(ShowStep)
    /// `set:` stores a value in a variable.
    case set(SetStep)
    /// `append:` adds a value to a list variable.
    case append(AppendStep)
    /// `if:` runs one of two step lists.
    case `if`(IfStep)
    /// `repeat:` runs steps a number of times or for each element of a list.
    case `repeat`(RepeatStep)
    /// `menu:` lets the user pick an option and runs its steps.
    case menu(MenuStep)
    /// `ask:` asks the user a question.
    case ask(AskStep)
    /// `run:` runs another workflow.
    case run(RunStep)
    /// `wait:` pauses.
    case wait(WaitStep)
    /// `stop:` ends the workflow, optionally with an output.
    case stop(StopStep)
    /// `fail:` ends the run as failed, with a message.
    case fail(FailStep)
    /// `comment:` does nothing; documents the workflow.
    case comment(CommentStep)
    /// `search:` searches indexed content.
    case search(SearchStep)
    /// `break:` ends the innermost `repeat`.
    case `break`
    /// `continue:` starts the next pass of the innermost `repeat`.
    case `continue`
    /// `try:` runs steps, with `catch:` for their error and `finally:` in every case.
    case `try`(TryStep)
    /// `parallel:` runs branches of steps at the same time.
    case parallel(ParallelStep)

    /// The key that introduces this kind of step, such as `perform`.
    ///
    /// ```swift
    /// print("'\(step.kind.keyword)' step at \(step.location)")
    /// ```
    public var keyword: String {
        switch self {
        case .perform: return "perform"
        case .find: return "find"
        case .filter: return "filter"
        case .show: return "show"
        case .set: return "set"
        case .append: return "append"
        case .if: return "if"
        case .repeat: return "repeat"
        case .menu: return "menu"
        case .ask: return "ask"
        case .run: return "run"
        case .wait: return "wait"
        case .stop: return "stop"
        case .fail: return "fail"
        case .comment: return "comment"
        case .search: return "search"
        case .break: return "break"
        case .continue: return "continue"
        case .try: return "try"
        case .parallel: return "parallel"
        }
    }

    /// Whether steps run inside this one (`if`, `repeat`, `menu`, `try`, `parallel`, and `run`'s
    /// nested workflow), so that a trace lists it before them.
    public var containsSteps: Bool {
        switch self {
        case .if, .repeat, .menu, .run, .try, .parallel: return true
        default: return false
        }
    }
}

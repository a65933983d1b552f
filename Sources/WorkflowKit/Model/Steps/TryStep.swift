/// `try:` runs its steps; when one fails, `catch:` runs with `${error}`; `finally:` runs
/// afterwards in every case.
///
/// `${error}` is a dictionary: `message` (the error's text, without its location), `step`
/// (the id of the step that failed, or its kind when it has none) and `location`
/// (`file:line:column` of the error). An error in `catch:` or `finally:` fails the `try`
/// step, at its own location. A `try` needs `catch:`, `finally:` or both.
///
/// ```yaml
/// - try:
///     - perform: Shell.RunScript
///       with: { script: "curl -fsS http://localhost:8080/health" }
///   catch:
///     - show: "The check failed: ${error.message}"
///   finally:
///     - show: Checked
/// ```
///
/// ```swift
/// if case .try(let block) = step.kind {
///     print(block.steps.count, "steps, catching:", block.catchSteps != nil)
/// }
/// ```
public struct TryStep: Sendable, Hashable {
    /// The steps tried.
    public var steps: [Step]
    /// The steps run when one of ``steps`` fails, or `nil` when the error is not caught.
    public var catchSteps: [Step]?
    /// The steps run after the others in every case, or `nil`.
    public var finallySteps: [Step]?
}

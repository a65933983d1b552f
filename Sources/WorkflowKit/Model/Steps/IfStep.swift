/// `if: condition` with `then:` steps and optional `else:` steps.
///
/// ```yaml
/// - if: { value: ${total}, greaterThan: 0 }
///   then:
///     - show: Found ${total}
///   else:
///     - stop: Nothing found
/// ```
///
/// ```swift
/// if case .if(let branch) = step.kind {
///     let steps = try evaluate(branch.condition) ? branch.thenSteps : branch.elseSteps
/// }
/// ```
public struct IfStep: Sendable, Hashable {
    /// The condition, with `value:` as its subject.
    public var condition: Condition
    /// The steps run when the condition holds.
    public var thenSteps: [Step]
    /// The steps run otherwise; empty when there is no `else:`.
    public var elseSteps: [Step]
}

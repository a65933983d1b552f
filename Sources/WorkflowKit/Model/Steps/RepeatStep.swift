/// `repeat: { count: n }`, `repeat: { each: list, as: name }`, `repeat: { while: condition }` or
/// `repeat: { until: condition }` with `steps:`.
///
/// `while:` checks its condition before each pass and stops when it does not hold; `until:`
/// checks after each pass and stops when it holds, so its steps run at least once. Both stop
/// the run with an error at the `repeat` after `maxIterations:` passes (10,000 by default).
/// A `break` step inside ends the loop; a `continue` step starts the next pass.
///
/// With `count:` (at most ``maximumCount``), `${index}` is the iteration number, counting from 1 as Apple Shortcuts'
/// Repeat Index does. With `each:`, the element is available under the `as:` name (`item`
/// when `as:` is omitted) and `${index}` is its position, counting from 1. The step's output is the list of the last step's outputs.
///
/// ```yaml
/// - repeat: { each: ${recent}, as: b }
///   steps:
///     - perform: Library.OpenBook
///       with: { book: ${b} }
/// ```
///
/// ```swift
/// if case .repeat(let loop) = step.kind, case .each(let list, _) = loop.mode {
///     print("repeats for each element of", list, "as", loop.itemName)
/// }
/// ```
public struct RepeatStep: Sendable, Hashable {
    /// How many times the steps run.
    public enum Mode: Sendable, Hashable {
        /// `count:` times; an integer literal or an expression.
        case count(ValueNode)
        /// Once for each element of a list, with the element named by `as:` (`nil` when omitted).
        case each(ValueNode, itemName: Located<String>?)
        /// While the condition holds, checked before each pass.
        case `while`(Condition)
        /// Until the condition holds, checked after each pass.
        case until(Condition)
    }

    /// How many passes a `while` or `until` loop makes at most when `maxIterations:` is omitted.
    public static let defaultMaxIterations = 10_000

    /// The largest `count:`: a larger one, written or computed (`count: ${input.n}`), fails at
    /// the count before the loop starts, since every pass keeps its output and its trace.
    public static let maximumCount = 100_000

    /// How many times the steps run.
    public var mode: Mode
    /// The steps repeated.
    public var steps: [Step]
    /// The `maxIterations:` of a `while` or `until` loop, if written.
    public var maxIterations: Located<Int>? = nil
    /// With `each:`, how many passes run at the same time (`concurrency:`); `nil` runs them
    /// one after another. The outputs stay in the order of the elements.
    public var concurrency: ValueNode? = nil

    /// The name of the current element in `each` mode: the `as:` name, or `item`.
    ///
    /// ```swift
    /// scope[loop.itemName] = element
    /// ```
    public var itemName: String {
        if case .each(_, let name?) = mode { return name.value }
        return "item"
    }
}

extension RepeatStep {
    /// What is wrong with a `count:` above ``maximumCount``, in the validator's and the runner's words alike.
    static func countProblem(_ count: Int) -> String {
        "'count' is \(count), more than \(maximumCount), the most passes a 'repeat' makes"
    }

    /// How to fix a `count:` above ``maximumCount``.
    static let countHelp = "lower it; a count given by a caller can be checked first, as in 'if: ${input.n <= \(maximumCount)}'"
}

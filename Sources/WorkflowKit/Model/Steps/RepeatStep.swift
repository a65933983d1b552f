/// `repeat: { count: n }` or `repeat: { each: list, as: name }` with `steps:`.
///
/// With `count:`, `${index}` is the iteration number, counting from 1 as Apple Shortcuts'
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
    }

    /// How many times the steps run.
    public var mode: Mode
    /// The steps repeated.
    public var steps: [Step]
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

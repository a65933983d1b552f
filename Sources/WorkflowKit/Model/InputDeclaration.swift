/// One typed input of a workflow, declared under `input:`.
///
/// Written as a mapping, or as just the type name:
///
/// ```yaml
/// input:
///   title: { type: String, default: Where the Crawdads Sing, description: The book's title }
///   count: Int
/// ```
///
/// An input without a default must be given when the workflow runs. Inputs are read with
/// `${input.name}`.
///
/// ```swift
/// let required = workflow.inputs.filter { $0.defaultValue == nil }.map(\.name.value)
/// ```
public struct InputDeclaration: Sendable, Hashable {
    /// The input's name.
    public var name: Located<String>
    /// The type name as written, such as `String`, `Int`, `Date` or `Library.BookEntity`.
    public var type: Located<String>
    /// The value used when the input is not given.
    public var defaultValue: ValueNode?
    /// A description for people running the workflow.
    public var description: String?
}

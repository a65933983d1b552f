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
/// An input without a default must be given when the workflow runs (it is asked for when the
/// run can ask), unless it has `required: false`: then it is `null` when not given. A required
/// input has no default. Inputs are read with `${input.name}`.
///
/// Types: `String` (or `text`), `Int` (`integer`), `Double` (`number`), `Bool` (`boolean`),
/// `Date` (`date`), `URL`, `File`, `Any`, a list `[T]` (`list` for `[Any]`), an entity such as
/// `Library.BookEntity` (given as its id or title, resolved through its query), an enum such
/// as `Library.Shelf`, and `T?` for an optional value.
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
    /// `required:` as written: `false` lets the input be missing; `nil` when not written.
    public var required: Located<Bool>? = nil

    /// Whether the run needs a value: no default, and not `required: false`.
    public var isRequired: Bool { defaultValue == nil && required?.value != false }
}

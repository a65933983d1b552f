/// A workflow loaded from a YAML file: its inputs, steps, output and optional automation.
///
/// ```yaml
/// name: Add and open a book
/// input:
///   title: { type: String, default: Where the Crawdads Sing }
/// steps:
///   - id: book
///     perform: Library.AddBook
///     with: { title: ${input.title} }
/// output: ${book}
/// ```
///
/// ```swift
/// let workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: "Workflows/add.yaml"))
/// print(workflow.name?.value ?? workflow.fileName, workflow.steps.count)
/// ```
public struct Workflow: Sendable, Hashable {
    /// `name:`, the title shown to people, or `nil` when absent.
    public var name: Located<String>?
    /// `description:`, or `nil` when absent.
    public var description: Located<String>?
    /// The typed inputs, in the order written.
    public var inputs: [InputDeclaration]
    /// The steps, in order.
    public var steps: [Step]
    /// `output:`, the workflow's result, or `nil` for none.
    public var output: ValueNode?
    /// `automation:`, or `nil` when the workflow only runs on demand.
    public var automation: AutomationBlock?
    /// The `onFailure:` steps, run with `${error}` when a step fails the run, and where the key is written.
    public var onFailure: Located<[Step]>? = nil
    /// The file name used in locations.
    public var fileName: String
    /// The file's text, so that later stages can render their diagnostics with excerpts.
    public var sourceText: String
    /// Whether this is only what loaded of a file that has errors (``DiagnosticError/loadedPart``):
    /// the parts in error are left out, so validation does not report the names they would define.
    public internal(set) var isPartial = false

}

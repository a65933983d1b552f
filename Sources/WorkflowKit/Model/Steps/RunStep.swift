/// `run: path-or-name` with optional `with:` inputs — runs another workflow; the output is its output.
///
/// ```yaml
/// - run: Workflows/other.yaml
///   with: { title: ${book.title} }
/// ```
///
/// ```swift
/// if case .run(let run) = step.kind { print("runs", run.workflow.value) }
/// ```
public struct RunStep: Sendable, Hashable {
    /// The nested workflow: a file path relative to this file, or a workflow name.
    public var workflow: Located<String>
    /// The nested workflow's inputs, in the order written.
    public var inputs: [NamedValue]
}

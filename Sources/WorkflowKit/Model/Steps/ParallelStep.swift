/// `parallel:` — branches of steps that run at the same time.
///
/// Each branch is a list of steps, or a single step for a one-step branch. The step's output
/// is the list of the branches' outputs in branch order, a branch's output being its last
/// step's output. Variables set inside a branch stay in the branch; the outputs of steps with
/// an `id` are visible after the `parallel` step. When a step of a branch fails, the other
/// branches are cancelled and the `parallel` step fails with that error.
///
/// ```yaml
/// - parallel:
///     - wait: 100ms
///     - - find: Library.BookEntity
///         id: books
///       - show: ${books.count} books
/// ```
///
/// ```swift
/// if case .parallel(let parallel) = step.kind {
///     print(parallel.branches.count, "branches")
/// }
/// ```
public struct ParallelStep: Sendable, Hashable {
    /// One branch: its steps, and where it is written.
    public struct Branch: Sendable, Hashable {
        /// The branch's steps, run in order.
        public var steps: [Step]
        /// Where the branch starts.
        public var location: SourceLocation
    }

    /// The branches, in the order their outputs are listed.
    public var branches: [Branch]
}

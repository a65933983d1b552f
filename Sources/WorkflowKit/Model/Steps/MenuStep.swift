/// `menu: prompt` with `options:` — an ordered mapping from option title to steps.
///
/// ```yaml
/// - menu: What next?
///   options:
///     Open my shelf: [ { perform: Library.OpenShelf } ]
///     Nothing: []
/// ```
///
/// ```swift
/// if case .menu(let menu) = step.kind {
///     let titles = menu.options.map(\.title.value)
/// }
/// ```
public struct MenuStep: Sendable, Hashable {
    /// One choice of a menu.
    ///
    /// ```swift
    /// let chosen = menu.options.first { $0.title.value == answer }
    /// ```
    public struct Option: Sendable, Hashable {
        /// The title shown to the user.
        public var title: Located<String>
        /// The steps run when the option is chosen.
        public var steps: [Step]
    }

    /// The prompt shown above the options.
    public var prompt: ValueNode
    /// The options in the order written; there is at least one.
    public var options: [Option]
}

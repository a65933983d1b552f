/// `search: query` with optional `index:` and `limit:` — searches indexed content.
///
/// ```yaml
/// - id: hits
///   search: ${input.query}
///   index: notes
///   limit: 10
/// ```
///
/// ```swift
/// if case .search(let search) = step.kind { print(search.index?.value ?? "default index") }
/// ```
public struct SearchStep: Sendable, Hashable {
    /// The user query.
    public var query: ValueNode
    /// The index to search, or `nil` for the default one.
    public var index: Located<String>?
    /// `limit:`: a non-negative integer literal or an expression.
    public var limit: ValueNode?
}

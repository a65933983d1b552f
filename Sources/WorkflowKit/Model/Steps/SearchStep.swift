/// `search: query` with optional `entity:`, `index:`, `limit:` and `semantic:` — searches indexed
/// content, ranked as a person's typed query, and returns what it finds best first.
///
/// In an index with semantic search on, items are found by meaning as well as by words;
/// `semantic: false` matches words only.
///
/// With `entity:` the output is a list of those entities (looked up through the entity's
/// query, so `${hits[0].title}` and entity parameters work); without it, each result is the
/// entity it stands for, or a dictionary of the item's attributes.
///
/// ```yaml
/// - id: hits
///   search: ${input.query}
///   entity: Library.BookEntity
///   index: library
///   limit: 10
/// ```
///
/// ```swift
/// if case .search(let search) = step.kind { print(search.index?.value ?? "every index") }
/// ```
public struct SearchStep: Sendable, Hashable {
    /// The user query.
    public var query: ValueNode
    /// The entity type the results must stand for, or `nil` for any item.
    public var entity: QualifiedName?
    /// The index to search, or `nil` for every index (with `entity`, the indexes of that type).
    public var index: Located<String>?
    /// `limit:`: a non-negative integer literal or an expression.
    public var limit: ValueNode?
    /// `semantic:`: whether items are also found by meaning (in indexes with semantic search on); `true` by default.
    public var semantic: Bool = true
}

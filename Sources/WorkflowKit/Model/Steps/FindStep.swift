/// `find: App.Entity` — queries an app's entities by property, pushed down to the app's query.
///
/// ```yaml
/// - id: recent
///   find: Library.BookEntity
///   where: { author: { equalTo: ${book.author} } }
///   sortBy: [ { datePublished: descending } ]
///   limit: 3
/// ```
///
/// ```swift
/// if case .find(let find) = step.kind {
///     print(find.entity, find.sortBy.count, find.condition != nil)
/// }
/// ```
public struct FindStep: Sendable, Hashable {
    /// The entity type, `App.Entity` or just `Entity`.
    public var entity: QualifiedName
    /// The conditions from `where:`, `all:` and `any:` (which must all hold), or `nil` for all entities.
    public var condition: Condition?
    /// The sort order, most significant first.
    public var sortBy: [SortCriterion]
    /// `limit:`: a non-negative integer literal or an expression.
    public var limit: ValueNode?
}

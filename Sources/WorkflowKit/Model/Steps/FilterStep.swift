/// `filter: ${list}` — keeps the elements of a list that match conditions, in memory.
///
/// ```yaml
/// - id: older
///   filter: ${recent}
///   where: { datePublished: { lessThan: 2000-01-01 } }
/// ```
///
/// ```swift
/// if case .filter(let filter) = step.kind, case .expression(let list) = filter.list {
///     print("filters", list)
/// }
/// ```
public struct FilterStep: Sendable, Hashable {
    /// The list to filter, usually an expression.
    public var list: ValueNode
    /// The conditions from `where:`, `all:` and `any:` (which must all hold), or `nil` to keep everything.
    public var condition: Condition?
    /// The sort order, most significant first.
    public var sortBy: [SortCriterion]
    /// `limit:`: a non-negative integer literal or an expression.
    public var limit: ValueNode?
}

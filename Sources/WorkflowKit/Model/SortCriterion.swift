import IntentKit

/// One `sortBy` entry: a property and a direction.
///
/// Written `- datePublished: descending`, or just `- title` for ascending order.
///
/// ```swift
/// let keys = find.sortBy.map { "\($0.property.value) \($0.order.rawValue)" }
/// ```
public struct SortCriterion: Sendable, Hashable {
    /// The property sorted on.
    public var property: Located<String>
    /// The direction, in IntentKit's vocabulary of entity queries.
    ///
    /// ```swift
    /// let isReversed = criterion.order == .descending
    /// ```
    public var order: EntityQuerySortOrder
}

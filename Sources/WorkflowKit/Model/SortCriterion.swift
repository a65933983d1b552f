/// One `sortBy` entry: a property and a direction.
///
/// Written `- datePublished: descending`, or just `- title` for ascending order.
///
/// ```swift
/// let keys = find.sortBy.map { "\($0.property.value) \($0.order.rawValue)" }
/// ```
public struct SortCriterion: Sendable, Hashable {
    /// The direction of a sort.
    ///
    /// ```swift
    /// let isReversed = criterion.order == .descending
    /// ```
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Smallest first.
        case ascending
        /// Largest first.
        case descending
    }

    /// The property sorted on.
    public var property: Located<String>
    /// The direction.
    public var order: Order
}

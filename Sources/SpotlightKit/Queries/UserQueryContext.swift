import Foundation

/// Options for a ``UserQuery``: what to fetch, how to filter, how many results and suggestions.
///
/// ```swift
/// var context = UserQueryContext()
/// context.fetchAttributes = ["title", "contentDescription"]
/// context.filterQueries = [#"contentTypeTree == "public.image""#]
/// context.enableRankedResults = true
/// context.maxRankedResultCount = 2
/// context.maxSuggestionCount = 4
/// ```
public struct UserQueryContext: Sendable, Hashable {
    /// The attributes filled in on each result; identifiers are always filled in.
    public var fetchAttributes: [String]
    /// Query-language filters; an item must satisfy all of them.
    public var filterQueries: [String]
    /// Whether the first ``maxRankedResultCount`` results are marked as top hits.
    public var enableRankedResults: Bool
    /// The most results delivered; `nil` for no limit.
    public var maxResultCount: Int?
    /// The most results marked as top hits; `nil` marks every result when ranking is enabled.
    public var maxRankedResultCount: Int?
    /// The most suggestions delivered; 0 turns suggestions off.
    public var maxSuggestionCount: Int
    /// Whether items are found by words, by meaning, or both; `.hybrid` by default.
    public var retrieval: RetrievalMode = .hybrid
    /// How hybrid queries fuse the two rankings; reciprocal rank fusion by default.
    public var fusion: RankFusion = .standard

    /// Creates a context.
    ///
    /// ```swift
    /// let context = UserQueryContext(fetchAttributes: ["title"], maxSuggestionCount: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - fetchAttributes: The attributes to fill in.
    ///   - filterQueries: Query-language filters, ANDed.
    ///   - enableRankedResults: Whether to mark top hits.
    ///   - maxResultCount: The most results.
    ///   - maxRankedResultCount: The most top hits.
    ///   - maxSuggestionCount: The most suggestions.
    public init(
        fetchAttributes: [String] = [],
        filterQueries: [String] = [],
        enableRankedResults: Bool = false,
        maxResultCount: Int? = nil,
        maxRankedResultCount: Int? = nil,
        maxSuggestionCount: Int = 0
    ) {
        self.fetchAttributes = fetchAttributes
        self.filterQueries = filterQueries
        self.enableRankedResults = enableRankedResults
        self.maxResultCount = maxResultCount
        self.maxRankedResultCount = maxRankedResultCount
        self.maxSuggestionCount = maxSuggestionCount
    }
}

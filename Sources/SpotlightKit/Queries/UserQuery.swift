import Clockwork
import Foundation
import GRDB
import Synchronization

/// A search as a person types it: every word matches a word or the start of a word,
/// ignoring case and diacritics; results are ranked and come with suggestions.
///
/// ```swift
/// var context = UserQueryContext(fetchAttributes: ["title"], enableRankedResults: true, maxSuggestionCount: 4)
/// let query = UserQuery(userQueryString: "windsurfing carmel", context: context, index: index)
/// for try await response in query.responses {
///     switch response {
///     case .item(let result): print(result.item.attributeSet.title ?? "", result.explanation)
///     case .suggestion(let suggestion): print("did you mean", suggestion.text)
///     }
/// }
/// ```
public final class UserQuery: Sendable {
    /// One element of ``UserQuery/responses``.
    public enum Response: Sendable {
        /// A found item.
        case item(Item)
        /// A suggested query.
        case suggestion(Suggestion)
    }

    /// A found item with its rank and the parts of its score.
    public struct Item: Sendable, Identifiable {
        /// The item, with the context's fetch attributes filled in.
        public var item: SearchableItem
        /// The 1-based position in score order.
        public var rank: Int
        /// The score; higher is better.
        public var score: Double
        /// Whether the item is one of the ranked top hits.
        public var isTopHit: Bool
        /// The parts of ``score``.
        public var explanation: ScoreExplanation

        public var id: String { item.uniqueIdentifier }

        /// Orders items by rank, best first.
        ///
        /// ```swift
        /// results.sort { $0.compare(byRank: $1) == .orderedAscending }
        /// ```
        ///
        /// - Parameters:
        ///   - other: The item to compare with.
        /// - Returns: `.orderedAscending` when this item ranks higher.
        public func compare(byRank other: Item) -> ComparisonResult {
            if score != other.score { return score > other.score ? .orderedAscending : .orderedDescending }
            if rank != other.rank { return rank < other.rank ? .orderedAscending : .orderedDescending }
            return .orderedSame
        }
    }

    /// A query the person may have meant: the typed words with the last one completed or corrected.
    public struct Suggestion: Sendable, Hashable {
        /// How a suggestion was made.
        public enum Kind: Sendable, Hashable {
            /// The last word completed from the index vocabulary.
            case completion
            /// A near miss corrected to a vocabulary term.
            case correction
        }

        /// The whole suggested query string, to put in the search field.
        public var text: String
        /// How the suggestion was made.
        public var kind: Kind
        /// How many items contain the suggested term.
        public var matchCount: Int
    }

    /// The kinds of interaction reported with ``userEngaged(_:visibleItems:interaction:)``.
    public enum InteractionKind: Sendable, Hashable {
        /// An interaction other than the ones below.
        case `default`
        /// The person opened or chose the item.
        case select
        /// The person focused or previewed the item.
        case focus
    }

    /// The text the person typed.
    public let userQueryString: String
    /// The options of the query.
    public let context: UserQueryContext
    /// The index searched.
    public let index: SearchableIndex

    private let environment: QueryEnvironment?
    private struct State {
        var cancelled = false
    }
    private let state = Mutex(State())

    /// Creates a user query; it runs when ``responses`` is iterated.
    ///
    /// ```swift
    /// let query = UserQuery(userQueryString: "crawdad", context: UserQueryContext(), index: index)
    /// ```
    ///
    /// - Parameters:
    ///   - userQueryString: The typed text; empty returns every item that passes the filters, ranked without text relevance.
    ///   - context: The options.
    ///   - index: The index to search.
    ///   - environment: The clock for freshness and `$time` filters; the index's ``SearchableIndex/clock``'s time when `nil`.
    public init(
        userQueryString: String, context: UserQueryContext = UserQueryContext(),
        index: SearchableIndex, environment: QueryEnvironment? = nil
    ) {
        self.userQueryString = userQueryString
        self.context = context
        self.index = index
        self.environment = environment
    }

    /// Results in score order, then suggestions.
    ///
    /// Iteration throws ``SpotlightError/invalidQuery(query:column:message:)``
    /// when a filter query is malformed and ``SpotlightError/cancelled(query:)``
    /// after ``cancel()``; when the iterating task is cancelled, iteration ends.
    public var responses: Responses { Responses(query: self) }

    /// The async sequence of results and suggestions.
    public struct Responses: AsyncSequence, Sendable {
        public typealias Element = Response
        let query: UserQuery

        public func makeAsyncIterator() -> Iterator {
            Iterator(query: query)
        }

        /// Runs the ranked search on the first call, then the suggestions after the last result.
        public struct Iterator: AsyncIteratorProtocol {
            let query: UserQuery
            private var items: [Item]?
            private var itemIndex = 0
            private var suggestions: [Suggestion]?
            private var suggestionIndex = 0

            init(query: UserQuery) {
                self.query = query
            }

            /// The next result or suggestion, or `nil` at the end.
            ///
            /// ```swift
            /// var iterator = query.responses.makeAsyncIterator()
            /// let first = try await iterator.next()
            /// ```
            ///
            /// - Returns: The next response.
            /// - Throws: ``SpotlightError`` for a malformed filter or a cancelled query, or a GRDB `DatabaseError`.
            public mutating func next() async throws -> Response? {
                do {
                    try query.checkCancellation()
                    if items == nil {
                        items = try await query.fetchItems()
                        try query.checkCancellation()
                    }
                    if let items, itemIndex < items.count {
                        itemIndex += 1
                        return .item(items[itemIndex - 1])
                    }
                    if suggestions == nil {
                        suggestions = try await query.fetchSuggestions()
                        try query.checkCancellation()
                    }
                    if let suggestions, suggestionIndex < suggestions.count {
                        suggestionIndex += 1
                        return .suggestion(suggestions[suggestionIndex - 1])
                    }
                    return nil
                } catch is CancellationError {
                    return nil
                }
            }
        }
    }

    /// Stops the query.
    ///
    /// ```swift
    /// query.cancel()
    /// ```
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Records how the person engaged with a result, to rank it higher in later searches.
    ///
    /// The engaged item gains engagement; the other visible items record an
    /// impression, which slowly lowers the weight of their past engagement.
    ///
    /// ```swift
    /// try await query.userEngaged(result, visibleItems: shown, interaction: .select)
    /// ```
    ///
    /// - Parameters:
    ///   - item: The result the person engaged with.
    ///   - visibleItems: The results that were on screen.
    ///   - interaction: What the person did.
    /// - Throws: A GRDB `DatabaseError` when the write fails.
    public func userEngaged(_ item: Item, visibleItems: [Item], interaction: InteractionKind) async throws {
        let storage = index.storage
        let now = (environment?.now ?? storage.clock.now()).timeIntervalSince1970
        let engagedId = item.item.uniqueIdentifier
        let others = Set(visibleItems.map(\.item.uniqueIdentifier))
        let indexId = storage.indexId
        try await storage.writer.write { db in
            try Engagement.record(
                identifier: engagedId, indexId: indexId, interaction: interaction, at: now, impressions: others, in: db)
        }
    }

    /// The typed words that are searched (at most ``QueryLimits/maxTypedWords``), and how many more were typed.
    ///
    /// One pass over the text, so a search costs time linear in its length however long it is.
    static func typedWords(_ userQueryString: String) -> (searched: [Substring], leftOut: Int) {
        var searched: [Substring] = []
        var leftOut = 0
        for word in userQueryString.split(whereSeparator: { $0.isWhitespace })
        where word.contains(where: { $0.isLetter || $0.isNumber }) {
            if searched.count < QueryLimits.maxTypedWords { searched.append(word) } else { leftOut += 1 }
        }
        return (searched, leftOut)
    }

    /// How many typed words were left out of the search because of ``QueryLimits/maxTypedWords``.
    ///
    /// ```swift
    /// if query.leftOutWordCount > 0 { print("only the first \(QueryLimits.maxTypedWords) words were searched") }
    /// ```
    public var leftOutWordCount: Int { Self.typedWords(userQueryString).leftOut }

    /// The full-text query for the typed words: each word as a prefix term (CJK words by
    /// their character pairs, see ``FullTextQuery``), all required.
    static func fullTextQuery(_ userQueryString: String) -> FullTextQuery? {
        FullTextQuery(typedWords: typedWords(userQueryString).searched)
    }

    func fetchItems() async throws -> [Item] {
        let environment = self.environment ?? QueryEnvironment(clock: index.storage.clock)
        if let items = try await semanticItems(environment: environment) { return items }
        let filters = try context.filterQueries.map { try QueryExpression.parse($0) }
        let filter = CompiledFilter.and(try filters.map { try QuerySQLCompiler.compile($0, environment: environment) })
        let wanted = Set(context.fetchAttributes.map(AttributeCatalog.canonicalName))
        let storage = index.storage
        let ftsQuery = Self.fullTextQuery(userQueryString)
        let context = self.context
        let now = environment.now.timeIntervalSince1970
        return try await storage.writer.read { db in
            SpotlightFunctions.install(in: db)
            return try Self.rankedItems(
                ftsQuery: ftsQuery, filter: filter, wanted: wanted, context: context,
                storage: storage, now: now, in: db)
        }
    }

    func fetchSuggestions() async throws -> [Suggestion] {
        guard context.maxSuggestionCount > 0 else { return [] }
        // A query cut at the word limit gets no suggestion: it would repeat the words searched.
        guard Self.typedWords(userQueryString).leftOut == 0 else { return [] }
        let limit = context.maxSuggestionCount
        let text = userQueryString
        let indexId = index.storage.indexId
        return try await index.storage.writer.read { db in
            try SuggestionEngine.suggestions(for: text, limit: limit, indexId: indexId, in: db)
        }
    }

    func checkCancellation() throws {
        if isCancelled { throw SpotlightError.cancelled(query: userQueryString) }
        try Task.checkCancellation()
    }
}

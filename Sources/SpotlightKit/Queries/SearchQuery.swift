import Foundation
import GRDB
import Synchronization

/// A query-language search over one index, delivering found items as an async sequence.
///
/// Results are read page by page as they are consumed, so a slow consumer
/// never makes the query read ahead.
///
/// ```swift
/// let query = SearchQuery(queryString: #"keywords == "natural*"cwdt"#, attributes: ["displayName", "keywords"], index: index)
/// for try await item in query.results {
///     print(item.uniqueIdentifier, item.attributeSet.displayName ?? "")
/// }
/// ```
public final class SearchQuery: Sendable {
    /// The query string, in the query language.
    public let queryString: String
    /// The attributes filled in on each found item (identifiers and expiration are always filled in).
    public let attributes: [String]
    /// The index searched.
    public let index: SearchableIndex

    let environment: QueryEnvironment?
    let pageSize: Int
    /// Queries every result must satisfy too, each parsed on its own (within its own limits).
    let filterQueries: [String]
    private struct State {
        var cancelled = false
        var found = 0
    }
    private let state = Mutex(State())

    /// Creates a query; it runs when ``results`` is iterated.
    ///
    /// ```swift
    /// let query = SearchQuery(queryString: #"title == "café"cd"#, attributes: ["title"], index: index)
    /// ```
    ///
    /// - Parameters:
    ///   - queryString: The query, for example `keywords == "natural*"cwdt && rankingHint >= 50`.
    ///   - attributes: The attribute names to fetch, as property names or `kMDItem…` names; custom keys too.
    ///   - index: The index to search.
    ///   - environment: The clock for `$time` values and expiration; the index's ``SearchableIndex/clock``'s time and the current calendar when `nil`.
    ///   - pageSize: How many rows are read per database access.
    public convenience init(
        queryString: String, attributes: [String], index: SearchableIndex,
        environment: QueryEnvironment? = nil, pageSize: Int = 256
    ) {
        self.init(
            queryString: queryString, filterQueries: [], attributes: attributes, index: index,
            environment: environment, pageSize: pageSize)
    }

    /// A query with filters that every result must satisfy too.
    init(
        queryString: String, filterQueries: [String], attributes: [String], index: SearchableIndex,
        environment: QueryEnvironment? = nil, pageSize: Int = 256
    ) {
        self.filterQueries = filterQueries
        self.queryString = queryString
        self.attributes = attributes
        self.index = index
        self.environment = environment
        self.pageSize = max(1, pageSize)
    }

    /// The found items, in index order.
    ///
    /// Iteration throws ``SpotlightError/invalidQuery(query:column:message:)``
    /// for a malformed query and ``SpotlightError/cancelled(query:)`` after
    /// ``cancel()``; when the iterating task is cancelled, iteration ends.
    public var results: Results { Results(query: self) }

    /// Stops the query; iteration then throws ``SpotlightError/cancelled(query:)``.
    ///
    /// ```swift
    /// query.cancel()
    /// ```
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// How many items have been delivered so far.
    public var foundItemCount: Int { state.withLock { $0.found } }

    func countFound() {
        state.withLock { $0.found += 1 }
    }

    /// The async sequence of found items.
    public struct Results: AsyncSequence, Sendable {
        public typealias Element = SearchableItem
        let query: SearchQuery

        public func makeAsyncIterator() -> Iterator {
            Iterator(query: query)
        }

        /// Reads one page when the previous one is used up.
        public struct Iterator: AsyncIteratorProtocol {
            let query: SearchQuery
            private var prepared: Prepared?
            private var buffer: [(Int64, SearchableItem)] = []
            private var bufferIndex = 0
            private var lastId: Int64 = 0
            private var exhausted = false

            struct Prepared {
                var filterSQL: String
                var arguments: [DatabaseValue]
                var wanted: Set<String>
                var now: Double
                /// A run every result contains, looked up in the vocabulary before the first page.
                var requirement: VocabularyPrefilter.Requirement?
                /// The ids that may match (a JSON array), once looked up; `nil` to scan every item.
                var candidates: String?

                /// One page of items after an id; `+i.indexId` keeps the planner on the rowid
                /// range (through an index on `indexId` every page would filter and sort all
                /// remaining items), and candidates are read by rowid.
                func sql(readingCandidates: Bool) -> String {
                    """
                    SELECT i.* FROM spotlightItem i
                    WHERE +i.indexId = ? AND (i.expirationDate IS NULL OR i.expirationDate > ?) AND i.id > ?
                      \(readingCandidates ? "AND i.id IN (SELECT value FROM json_each(?))" : "")
                      AND (\(filterSQL))
                    ORDER BY i.id LIMIT ?
                    """
                }
            }

            init(query: SearchQuery) {
                self.query = query
            }

            /// The next found item, or `nil` at the end.
            ///
            /// ```swift
            /// var iterator = query.results.makeAsyncIterator()
            /// let first = try await iterator.next()
            /// ```
            ///
            /// - Returns: The next item.
            /// - Throws: ``SpotlightError`` for a malformed or cancelled query, or a GRDB `DatabaseError`.
            public mutating func next() async throws -> SearchableItem? {
                if query.isCancelled { throw SpotlightError.cancelled(query: query.queryString) }
                if Task.isCancelled { return nil }
                if bufferIndex == buffer.count {
                    if exhausted { return nil }
                    do {
                        try await loadPage()
                    } catch is CancellationError {
                        return nil
                    }
                    if query.isCancelled { throw SpotlightError.cancelled(query: query.queryString) }
                    if buffer.isEmpty { return nil }
                }
                let (id, item) = buffer[bufferIndex]
                bufferIndex += 1
                lastId = id
                query.countFound()
                return item
            }

            private mutating func loadPage() async throws {
                if prepared == nil {
                    let environment = query.environment ?? QueryEnvironment(clock: query.index.clock)
                    let expressions = try ([query.queryString] + query.filterQueries).map { try QueryExpression.parse($0) }
                    let filter = CompiledFilter.and(
                        try expressions.map { try QuerySQLCompiler.compile($0, environment: environment) })
                    prepared = Prepared(
                        filterSQL: filter.sql,
                        arguments: filter.arguments,
                        wanted: Set(query.attributes.map(AttributeCatalog.canonicalName)),
                        now: environment.now.timeIntervalSince1970,
                        requirement: expressions.compactMap(VocabularyPrefilter.requirement(of:))
                            .max { $0.piece.count < $1.piece.count })
                }
                let prepared = self.prepared!
                let storage = query.index.storage
                let after = lastId
                let limit = query.pageSize
                let page = try await storage.writer.read { db -> (items: [(Int64, SearchableItem)], candidates: String?) in
                    SpotlightFunctions.install(in: db)
                    var candidates = prepared.candidates
                    if candidates == nil, let requirement = prepared.requirement,
                        let ids = try VocabularyPrefilter.candidates(for: requirement, in: db)
                    {
                        candidates = "[" + ids.map(String.init).joined(separator: ",") + "]"
                    }
                    var arguments: [DatabaseValue] = [storage.indexId.databaseValue, prepared.now.databaseValue, after.databaseValue]
                    if let candidates { arguments.append(candidates.databaseValue) }
                    let sql = prepared.sql(readingCandidates: candidates != nil)
                    arguments += prepared.arguments
                    arguments.append(limit.databaseValue)
                    let records = try ItemRecord.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
                    let items = try records.map { record in
                        (record.id ?? 0, try IndexStorage.item(from: record, attributes: prepared.wanted, in: db))
                    }
                    return (items, candidates)
                }
                buffer = page.items
                self.prepared?.candidates = page.candidates
                self.prepared?.requirement = nil
                bufferIndex = 0
                exhausted = buffer.count < limit
            }
        }
    }
}

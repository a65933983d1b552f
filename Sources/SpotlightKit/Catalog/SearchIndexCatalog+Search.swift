import Foundation
import IntentKit

/// What to search for with ``SearchIndexCatalog/search(_:)``.
///
/// ```swift
/// var request = SearchRequest(text: "owens")
/// request.indexNames = ["library"]
/// request.filterQueries = [#"shelf == "read""#]
/// request.limit = 5
/// ```
public struct SearchRequest: Sendable {
    /// How ``text`` is read.
    public enum Language: Sendable, Hashable {
        /// Typed text, ranked: every word matches a word or the start of one (``UserQuery``).
        case userQuery
        /// The query-string language, in index order (``SearchQuery``).
        case queryString
    }

    /// The text searched for.
    public var text: String
    /// How the text is read.
    public var language: Language
    /// The indexes to search; `nil` for every index (or, with ``entityType``, the indexes of that type).
    public var indexNames: [String]?
    /// Query-language filters every result must satisfy.
    public var filterQueries: [String]
    /// Only items that stand for entities of this type.
    public var entityType: (any IndexedEntity.Type)?
    /// The most results in all; `nil` for no limit.
    public var limit: Int?
    /// The most suggestions (user queries only).
    public var maxSuggestionCount: Int
    /// By words, by meaning or both (user queries only); indexes without semantic search are searched by words.
    public var retrieval: RetrievalMode = .hybrid

    /// Creates a request.
    ///
    /// ```swift
    /// let request = SearchRequest(text: #"keywords == "natural*"cwdt"#, language: .queryString, indexNames: ["tags"])
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text searched for.
    ///   - language: How the text is read.
    ///   - indexNames: The indexes; `nil` for all.
    ///   - filterQueries: Query-language filters.
    ///   - entityType: Only items of this entity type.
    ///   - limit: The most results.
    ///   - maxSuggestionCount: The most suggestions.
    public init(
        text: String, language: Language = .userQuery, indexNames: [String]? = nil, filterQueries: [String] = [],
        entityType: (any IndexedEntity.Type)? = nil, limit: Int? = nil, maxSuggestionCount: Int = 0
    ) {
        self.text = text
        self.language = language
        self.indexNames = indexNames
        self.filterQueries = filterQueries
        self.entityType = entityType
        self.limit = limit
        self.maxSuggestionCount = maxSuggestionCount
    }
}

/// One found item, with the index it came from, its score and the entity it stands for.
public struct SearchHit: Sendable {
    /// The index the item is in.
    public var indexName: String
    /// The item, with the attributes ``SearchIndexCatalog/fetchAttributes`` filled in.
    public var item: SearchableItem
    /// The score of a user query (higher is better); `nil` for a query string.
    public var score: Double?
    /// The parts of the score.
    public var explanation: ScoreExplanation?
    /// The entity the item stands for, looked up through the entity's query, when its type is installed.
    public var entity: IntentValue?
    /// The full name of the entity's type (`Library.BookEntity`), when it is installed.
    public var entityTypeName: String?
}

/// What ``SearchIndexCatalog/search(_:)`` found.
public struct SearchResponse: Sendable {
    /// The hits, best first for user queries, by index then in index order for query strings.
    public var hits: [SearchHit]
    /// Suggested queries, most frequent first (user queries only).
    public var suggestions: [UserQuery.Suggestion]
    /// The typed words left out of the search: those after the first ``QueryLimits/maxTypedWords``.
    public var leftOutWordCount: Int = 0
}

extension SearchIndexCatalog {
    /// The attributes filled in on found items.
    public static let fetchAttributes =
        [
            "title", "displayName", "contentDescription", "keywords", "contentType",
            "contentURL", "lastUsedDate", "rankingHint"
        ] + AppEntityResolver.referenceAttributes

    /// Searches several indexes at once.
    ///
    /// Each app index is brought up to date first. User-query hits from different indexes are
    /// merged by score (each score is relative to the best match of its own index); query-string
    /// hits come index by index. Hits that stand for an installed entity type are returned with
    /// the entity, looked up through its query; hits whose entity no longer exists are left out.
    ///
    /// ```swift
    /// let response = try await catalog.search(SearchRequest(text: "crawdads", limit: 3, maxSuggestionCount: 2))
    /// let books = response.hits.compactMap(\.entity)
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to search for.
    /// - Returns: The hits and suggestions.
    /// - Throws: ``SpotlightError/unknownIndex(name:known:)``, ``SpotlightError/invalidQuery(query:column:message:)``
    ///   for a malformed query or filter, or an error from an index or an entity query.
    public func search(_ request: SearchRequest) async throws -> SearchResponse {
        var filters = request.filterQueries
        if let type = request.entityType { filters.append(AppEntityResolver.filterQuery(for: type)) }
        for query in filters + (request.language == .queryString ? [request.text] : []) {
            _ = try QueryExpression.parse(query)
        }
        var hits: [SearchHit] = []
        var suggestions: [UserQuery.Suggestion] = []
        for name in try names(for: request) {
            let limitReached = try await explainingDatabaseErrors(of: name) { () async throws -> Bool in
                let opened = try await open(name)
                switch request.language {
                case .userQuery:
                    var context = UserQueryContext(
                        fetchAttributes: Self.fetchAttributes, filterQueries: filters,
                        enableRankedResults: true, maxResultCount: request.limit,
                        maxSuggestionCount: request.maxSuggestionCount)
                    context.maxRankedResultCount = request.limit
                    context.retrieval = request.retrieval
                    if request.retrieval != .lexical { try await opened.index.prepareSemanticSearch() }
                    for try await response in UserQuery(userQueryString: request.text, context: context, index: opened.index).responses {
                        switch response {
                        case .item(let result):
                            hits.append(SearchHit(indexName: name, item: result.item, score: result.score, explanation: result.explanation))
                        case .suggestion(let suggestion):
                            suggestions.append(suggestion)
                        }
                    }
                case .queryString:
                    let query = SearchQuery(
                        queryString: request.text, filterQueries: filters,
                        attributes: Self.fetchAttributes, index: opened.index)
                    for try await item in query.results {
                        hits.append(SearchHit(indexName: name, item: item))
                        if let limit = request.limit, hits.count >= limit { return true }
                    }
                }
                return false
            }
            if limitReached { break }
        }
        if request.language == .userQuery {
            hits = hits.enumerated().sorted { lhs, rhs in
                (lhs.element.score ?? 0, -lhs.offset) > (rhs.element.score ?? 0, -rhs.offset)
            }.map(\.element)
        }
        hits = try await resolveEntities(hits)
        if let limit = request.limit { hits = Array(hits.prefix(max(0, limit))) }
        return SearchResponse(
            hits: hits, suggestions: Self.merged(suggestions, limit: request.maxSuggestionCount),
            leftOutWordCount: request.language == .userQuery ? UserQuery.typedWords(request.text).leftOut : 0)
    }

    /// The indexes a request searches.
    private func names(for request: SearchRequest) throws -> [String] {
        let all = indexNames
        if let wanted = request.indexNames {
            for name in wanted where !all.contains(name) { throw SpotlightError.unknownIndex(name: name, known: all) }
            return wanted
        }
        if let type = request.entityType {
            let holding = intents.searchIndexes
                .filter { $0.index.entityTypes.contains { ObjectIdentifier($0) == ObjectIdentifier(type) } }
                .map(\.index.name)
            if !holding.isEmpty { return holding }
        }
        return all
    }

    /// Looks up the entities hits stand for; drops hits whose entity is gone.
    private func resolveEntities(_ hits: [SearchHit]) async throws -> [SearchHit] {
        var resolved = hits.map { Optional($0) }
        let installed = intents.indexedEntities
        let types = Set(hits.compactMap { $0.item.associatedAppEntity?.typeIdentifier })
        for typeIdentifier in types.sorted() {
            guard let entity = installed.first(where: { $0.type.entityTypeIdentifier == typeIdentifier }) else { continue }
            try await IntentPerformer(catalog: intents).prepare(entity.app)
            let positions = hits.indices.filter { hits[$0].item.associatedAppEntity?.typeIdentifier == typeIdentifier }
            let found = try await AppEntityResolver.entities(for: positions.map { hits[$0].item }, among: [entity.type])
            for (position, value) in zip(positions, found) {
                if let value {
                    resolved[position]?.entity = value.intentValue
                    resolved[position]?.entityTypeName = entity.name
                } else {
                    resolved[position] = nil
                }
            }
        }
        return resolved.compactMap { $0 }
    }

    private static func merged(_ suggestions: [UserQuery.Suggestion], limit: Int) -> [UserQuery.Suggestion] {
        var seen: Set<String> = []
        let unique = suggestions.filter { seen.insert($0.text).inserted }
        let ordered = unique.enumerated().sorted { ($0.element.matchCount, -$0.offset) > ($1.element.matchCount, -$1.offset) }
        return Array(ordered.map(\.element).prefix(max(0, limit)))
    }
}

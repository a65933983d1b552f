import Foundation
import IntentKit

/// What answers a workflow's `search:` steps: the indexes there are, which entity types can be
/// searched, and the search itself.
///
/// WorkflowKit knows no search engine; the program that runs workflows supplies one (the
/// `shortcuts` command line supplies SpotlightKit's indexes) through ``WorkflowSearch/bootstrap(_:)``
/// or by passing it to ``WorkflowRunner`` and ``WorkflowValidator``.
///
/// ```swift
/// struct FixedSearch: WorkflowSearchProvider {
///     var indexNames: [String] { ["notes"] }
///     func entityTypes(ofIndexNamed name: String) -> [any AppEntity.Type]? { [NoteEntity.self] }
///     func isSearchable(_ type: any AppEntity.Type) -> Bool { type == NoteEntity.self }
///     func search(_ request: WorkflowSearchRequest) async throws -> [IntentValue] {
///         NoteEntity.all.filter { $0.title.localizedCaseInsensitiveContains(request.text) }.map(\.intentValue)
///     }
/// }
/// let runner = WorkflowRunner(catalog: catalog, search: FixedSearch())
/// ```
public protocol WorkflowSearchProvider: Sendable {
    /// Every index a `search` step may name, sorted.
    var indexNames: [String] { get }

    /// The entity types the items of an index stand for, when the index declares them.
    ///
    /// - Parameter name: The index name.
    /// - Returns: The types, or `nil` for an index of loose items or an unknown index.
    func entityTypes(ofIndexNamed name: String) -> [any AppEntity.Type]?

    /// Whether entities of a type can be searched (an index can hold them).
    ///
    /// - Parameter type: The entity type.
    /// - Returns: `true` when a `search` step may name the type under `entity:`.
    func isSearchable(_ type: any AppEntity.Type) -> Bool

    /// Answers a `search` step.
    ///
    /// - Parameter request: The query, and what to search.
    /// - Returns: The results, best first: entities for items that stand for an installed
    ///   entity, dictionaries of their attributes for other items.
    /// - Throws: When the query is malformed or an index cannot be read; the error's
    ///   description is shown at the step.
    func search(_ request: WorkflowSearchRequest) async throws -> [IntentValue]
}

/// What a `search` step asks for.
///
/// ```swift
/// let request = WorkflowSearchRequest(text: "marsh", indexName: "notes", limit: 5)
/// ```
public struct WorkflowSearchRequest: Sendable {
    /// The typed query.
    public var text: String
    /// Only results that stand for entities of this type.
    public var entityType: (any AppEntity.Type)?
    /// Only results from this index; every index when `nil`.
    public var indexName: String?
    /// The most results; no limit when `nil`.
    public var limit: Int?
    /// Whether items are also found by meaning, where the index has semantic search on.
    public var semantic = true

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - text: The typed query.
    ///   - entityType: Only results of this entity type.
    ///   - indexName: Only results from this index.
    ///   - limit: The most results.
    public init(text: String, entityType: (any AppEntity.Type)? = nil, indexName: String? = nil, limit: Int? = nil) {
        self.text = text
        self.entityType = entityType
        self.indexName = indexName
        self.limit = limit
    }
}

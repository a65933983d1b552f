import Foundation
import IntentKit
import SpotlightKit
import WorkflowKit

/// Answers workflows' `search:` steps from SpotlightKit's indexes: those the installed apps
/// keep and the index files in `$SHORTCUTS_HOME/indexes`.
///
/// Found items that stand for an installed entity become that entity; other items become a
/// dictionary of their attributes (`id`, `index`, `title`, `description`, `contentType`,
/// `keywords`, `domain`, `score`).
///
/// ```swift
/// WorkflowSearch.bootstrap { catalog in SpotlightSearchProvider(catalog: catalog) }
/// ```
package struct SpotlightSearchProvider: WorkflowSearchProvider {
    /// The indexes searched.
    package let indexes: SearchIndexCatalog

    /// Searches the installed apps' indexes and the index files of a folder.
    ///
    /// - Parameter indexes: The indexes.
    package init(indexes: SearchIndexCatalog) {
        self.indexes = indexes
    }

    /// Searches the apps' indexes and the index files in `$SHORTCUTS_HOME/indexes`.
    ///
    /// - Parameter catalog: The installed apps.
    package init(catalog: IntentCatalog) {
        self.init(indexes: SearchIndexCatalog(intents: catalog))
    }

    package var indexNames: [String] { indexes.indexNames }

    package func entityTypes(ofIndexNamed name: String) -> [any AppEntity.Type]? {
        indexes.appIndex(named: name).map { $0.index.entityTypes.map { $0 as any AppEntity.Type } }
    }

    package func isSearchable(_ type: any AppEntity.Type) -> Bool {
        type is any IndexedEntity.Type
    }

    package func search(_ request: WorkflowSearchRequest) async throws -> [IntentValue] {
        var entityType: (any IndexedEntity.Type)?
        if let type = request.entityType {
            guard let indexed = type as? any IndexedEntity.Type else {
                throw SpotlightSearchError(message: "\(type) is not an indexed entity")
            }
            entityType = indexed
        }
        var search = SearchRequest(
            text: request.text, indexNames: request.indexName.map { [$0] }, entityType: entityType, limit: request.limit)
        search.retrieval = request.semantic ? .hybrid : .lexical
        let response = try await indexes.search(search)
        return response.hits.map { hit in hit.entity ?? Self.dictionary(of: hit) }
    }

    /// A found item that stands for no installed entity, as a dictionary of its attributes.
    static func dictionary(of hit: SearchHit) -> IntentValue {
        let attributes = hit.item.attributeSet
        var entries: [String: IntentValue] = ["id": .string(hit.item.uniqueIdentifier), "index": .string(hit.indexName)]
        if let title = attributes.title ?? attributes.displayName { entries["title"] = .string(title) }
        if let description = attributes.contentDescription { entries["description"] = .string(description) }
        if let type = attributes.contentType { entries["contentType"] = .string(type) }
        if let keywords = attributes.keywords { entries["keywords"] = .list(keywords.map(IntentValue.string)) }
        if let domain = hit.item.domainIdentifier { entries["domain"] = .string(domain) }
        if let score = hit.score { entries["score"] = .double(score) }
        return .dictionary(entries)
    }
}

/// A search the indexes cannot answer.
struct SpotlightSearchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

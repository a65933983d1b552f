import Foundation
import GRDB

/// A row of `spotlightIndex`: one named index and its client state.
struct IndexRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "spotlightIndex"
    var id: Int64?
    var name: String
    var clientState: Data?
    var createdAt: Double

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A row of `spotlightItem`. Dates are seconds since 1970; multi-valued text is joined by U+001F.
struct ItemRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spotlightItem"
    var id: Int64?
    var indexId: Int64
    var uniqueIdentifier: String
    var domainIdentifier: String?
    var title: String?
    var displayName: String?
    var textContent: String?
    var contentDescription: String?
    var keywords: String?
    var contentType: String?
    var contentTypeTree: String?
    var contentURL: String?
    var thumbnailData: Data?
    var relatedUniqueIdentifier: String?
    var lastUsedDate: Double?
    var rankingHint: Int?
    var expirationDate: Double?
    var indexedAt: Double
}

/// A row of `spotlightCustomAttribute`: one value of a custom key.
struct CustomAttributeRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spotlightCustomAttribute"
    var itemId: Int64
    var key: String
    var ordinal: Int
    var kind: String
    var textValue: String?
    var numberValue: Double?
}

/// A row of `spotlightEngagement`: how people interacted with one item.
struct EngagementRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spotlightEngagement"
    var indexId: Int64
    var uniqueIdentifier: String
    var selectCount: Int
    var focusCount: Int
    var defaultCount: Int
    var impressionCount: Int
    var lastEngagedAt: Double?
}

/// A row of `spotlightIndexerState`: how far a store's history has been indexed.
struct IndexerStateRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "spotlightIndexerState"
    var storeIdentifier: String
    var indexName: String
    var historyToken: Int64
    var updatedAt: Double
}

extension ItemRecord {
    static func join(_ values: [String]?) -> String? {
        guard let values else { return nil }
        let cleaned =
            values
            .map { $0.contains("\u{1F}") ? String($0.map { $0 == "\u{1F}" ? " " : $0 }) : $0 }
            .filter { !$0.isEmpty }
        return cleaned.isEmpty ? nil : cleaned.joined(separator: "\u{1F}")
    }

    static func split(_ value: String?) -> [String]? {
        guard let value, !value.isEmpty else { return nil }
        return value.split(separator: "\u{1F}", omittingEmptySubsequences: true).map(String.init)
    }
}

import Foundation
import GRDB

@testable import SpotlightKit

/// A fresh directory under the system temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("SpotlightKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// An index in a new in-memory database.
func makeIndex(name: String = "default") throws -> SearchableIndex {
    try SearchableIndex(name: name, database: DatabaseQueue())
}

/// A text item with the given attributes.
func textItem(
    _ identifier: String,
    title: String? = nil,
    displayName: String? = nil,
    text: String? = nil,
    keywords: [String]? = nil,
    domain: String? = nil,
    contentType: ContentType = .plainText,
    lastUsed: Date? = nil,
    hint: Int? = nil,
    expires: Date? = nil
) -> SearchableItem {
    var set = SearchableItemAttributeSet(contentType: contentType)
    if let title { set.title = title }
    if let displayName { set.displayName = displayName }
    if let text { set.textContent = text }
    if let keywords { set.keywords = keywords }
    if let lastUsed { set.lastUsedDate = lastUsed }
    if let hint { set.rankingHint = hint }
    return SearchableItem(uniqueIdentifier: identifier, domainIdentifier: domain, attributeSet: set, expirationDate: expires)
}

/// The identifiers found by a query-language search, sorted.
func search(_ query: String, in index: SearchableIndex, environment: QueryEnvironment? = nil) async throws -> [String] {
    var found: [String] = []
    for try await item in SearchQuery(queryString: query, attributes: [], index: index, environment: environment).results {
        found.append(item.uniqueIdentifier)
    }
    return found.sorted()
}

/// The ranked results and suggestions of a user query.
func userSearch(
    _ text: String, context: UserQueryContext = UserQueryContext(), in index: SearchableIndex,
    environment: QueryEnvironment? = nil
) async throws -> (items: [UserQuery.Item], suggestions: [UserQuery.Suggestion]) {
    var items: [UserQuery.Item] = []
    var suggestions: [UserQuery.Suggestion] = []
    for try await response in UserQuery(userQueryString: text, context: context, index: index, environment: environment).responses {
        switch response {
        case .item(let item): items.append(item)
        case .suggestion(let suggestion): suggestions.append(suggestion)
        }
    }
    return (items, suggestions)
}

/// The column of an invalid-query error, or `nil` for any other outcome.
func errorColumn(_ query: String) -> Int? {
    do {
        _ = try QueryExpression.parse(query)
        return nil
    } catch let SpotlightError.invalidQuery(_, column, _) {
        return column
    } catch {
        return nil
    }
}

/// The message of an invalid-query error.
func errorMessage(_ query: String) -> String? {
    do {
        _ = try QueryExpression.parse(query)
        return nil
    } catch let SpotlightError.invalidQuery(_, _, message) {
        return message
    } catch {
        return nil
    }
}

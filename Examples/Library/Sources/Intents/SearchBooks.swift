import Foundation
import IntentKit
import SpotlightKit

/// Finds books by words of their title or author, best matches first, through the library's
/// search index.
public struct SearchBooks: AppIntent {
    public static let title: LocalizedStringResource = "Search Books"
    public static let description = IntentDescription("Finds books in your library by words of their title or author, best matches first.")

    @Parameter(title: "Query", requestValueDialog: "What are you looking for?")
    public var query: String

    @Parameter(title: "Limit", default: 10)
    public var limit: Int

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Search books for \(\.$query)") { \.$limit }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<[BookEntity]> & ProvidesDialog {
        let delegate = try LibrarySpotlightDelegate.shared()
        try await delegate.prepareForSearch()
        let books = try await delegate.searchableIndex.searchAppEntities(
            query, ofType: BookEntity.self, context: UserQueryContext(maxResultCount: max(0, limit)))
        if books.isEmpty {
            return .result(value: books, dialog: "No books match \(query).")
        }
        return .result(value: books, dialog: "Books matching \(query): \(books.count).")
    }
}

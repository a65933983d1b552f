import Foundation
import IntentKit

/// Adds a book from the catalog to the library, returns it and opens it.
///
/// When several authors wrote books with the title, it asks "Who wrote the book?"; when the
/// title only partly matches, it asks to confirm the book it found.
public struct AddBook: AppIntent {
    public static let title: LocalizedStringResource = "Add Book"
    public static let description = IntentDescription("Adds a book from the catalog to your library and opens it.")

    @Parameter(title: "Title", requestValueDialog: "Which book do you want to add?")
    public var title: String

    @Parameter(title: "Author Name")
    public var authorName: String?

    @Parameter(title: "Recommended By")
    public var recommendedBy: String?

    @Parameter(title: "Shelf", default: .wantToRead)
    public var shelf: Shelf

    @Dependency var database: LibraryDatabase

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        When(\.$authorName, .hasAnyValue) {
            Summary("Add \(\.$title) by \(\.$authorName)") {
                \.$recommendedBy
                \.$shelf
            }
        } otherwise: {
            Summary("Add \(\.$title)") {
                \.$authorName
                \.$recommendedBy
                \.$shelf
            }
        }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & OpensIntent & ProvidesDialog {
        let lookup = BookCatalog.bundled.findBooks(named: title, author: authorName)
        guard !lookup.books.isEmpty else { throw Error.notFound(title: title) }
        if Set(lookup.books.map(\.author)).count > 1 && authorName == nil {
            throw $authorName.requestValue("Who wrote the book?")
        }
        var entry = lookup.books[0]
        if lookup.books.count > 1 {
            let chosen = try await $title.requestDisambiguation(among: lookup.books.map(\.title), dialog: "Which book?")
            entry = lookup.books.first { $0.title == chosen } ?? entry
        } else if !lookup.isExact {
            let confirmed = try await $title.requestConfirmation(
                for: entry.title, dialog: "Did you mean \(entry.title) by \(entry.author)?")
            guard confirmed else { throw Error.notFound(title: title) }
        }
        // One transaction finds or inserts: a concurrent add of the same book returns this one.
        let book = try database.addBook(entry, shelf: shelf, recommendedBy: recommendedBy)
        return .result(value: book, opensIntent: OpenBook(book: book), dialog: "Added \(book) to Library!")
    }

    /// Why a book could not be added.
    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
        case notFound(title: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .notFound(let title): "No book called \(title) is in the catalog."
            }
        }
    }
}

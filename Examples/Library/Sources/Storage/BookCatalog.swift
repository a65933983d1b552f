import Foundation
import IntentKit

/// The offline catalog of real books that ``AddBook`` looks titles up in, bundled as
/// `Resources/catalog.json` (title, author, first-publication date).
public struct BookCatalog: Sendable {
    /// A book of the catalog.
    public struct Entry: Codable, Sendable, Hashable {
        public var title: String
        public var author: String
        public var firstPublished: String
        public var coAuthors: [String]?

        /// The first-publication date; a year alone or a year and month mean its first day (UTC).
        public var publicationDate: Date { DateText.parse(firstPublished) ?? Date(timeIntervalSince1970: 0) }
    }

    /// Every entry.
    public let entries: [Entry]

    /// The bundled catalog, compiled into the binary (`Resources/EmbeddedResources.swift`).
    public static let bundled: BookCatalog = {
        guard let text = LibraryResources.files["catalog.json"],
            let entries = try? JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        else { return BookCatalog(entries: []) }
        return BookCatalog(entries: entries)
    }()

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The result of a title lookup.
    public struct Lookup: Sendable {
        /// The books found.
        public var books: [Entry]
        /// Whether they matched the title exactly (ignoring case and diacritics), rather than
        /// containing it.
        public var isExact: Bool
    }

    /// Finds books by title, optionally narrowed by author: exact title matches if there are
    /// any, otherwise titles containing the text.
    ///
    /// - Parameters:
    ///   - title: The title, or part of it.
    ///   - author: Part of the author's name.
    /// - Returns: The books found, and whether the match was exact.
    public func findBooks(named title: String, author: String?) -> Lookup {
        let wanted = ValueComparison.fold(title.trimmingCharacters(in: .whitespaces))
        let byAuthor = entries.filter { entry in
            guard let author, !author.isEmpty else { return true }
            return ValueComparison.fold(entry.author).contains(ValueComparison.fold(author))
        }
        let exact = byAuthor.filter { ValueComparison.fold($0.title) == wanted }
        if !exact.isEmpty { return Lookup(books: exact, isExact: true) }
        guard !wanted.isEmpty else { return Lookup(books: [], isExact: false) }
        return Lookup(books: byAuthor.filter { ValueComparison.fold($0.title).contains(wanted) }, isExact: false)
    }
}

import Foundation
import GRDB
import IntentKit

/// Finds books in the library's SQLite database.
///
/// As a property query, each comparator becomes a SQL condition with bound arguments, and
/// the filter, sort and limit all run in SQLite. It also finds books by text (title or
/// author) and suggests the books being read.
public struct BookQuery: EntityPropertyQuery, EntityStringQuery {
    @Dependency var database: LibraryDatabase

    public init() {}

    public static let properties = QueryProperties {
        Property(\BookEntity.$title) {
            EqualToComparator { BookCondition.text("title", equalTo: $0) }
            NotEqualToComparator { BookCondition.text("title", notEqualTo: $0) }
            ContainsComparator { BookCondition.text("title", contains: $0) }
            HasPrefixComparator { BookCondition.text("title", hasPrefix: $0) }
            HasSuffixComparator { BookCondition.text("title", hasSuffix: $0) }
        }
        Property(\BookEntity.$author) {
            EqualToComparator { BookCondition.text("author", equalTo: $0) }
            NotEqualToComparator { BookCondition.text("author", notEqualTo: $0) }
            ContainsComparator { BookCondition.text("author", contains: $0) }
            HasPrefixComparator { BookCondition.text("author", hasPrefix: $0) }
            HasSuffixComparator { BookCondition.text("author", hasSuffix: $0) }
        }
        Property(\BookEntity.$datePublished) {
            EqualToComparator { BookCondition.date("datePublished", "=", $0) }
            LessThanComparator { BookCondition.date("datePublished", "<", $0) }
            LessThanOrEqualToComparator { BookCondition.date("datePublished", "<=", $0) }
            GreaterThanComparator { BookCondition.date("datePublished", ">", $0) }
            GreaterThanOrEqualToComparator { BookCondition.date("datePublished", ">=", $0) }
            IsBetweenComparator { BookCondition.date("datePublished", between: $0, and: $1) }
        }
        Property(\BookEntity.$dateRead) {
            LessThanComparator { BookCondition.date("dateRead", "<", $0) }
            GreaterThanComparator { BookCondition.date("dateRead", ">", $0) }
            IsBetweenComparator { BookCondition.date("dateRead", between: $0, and: $1) }
        }
        Property(\BookEntity.$shelf) {
            EqualToComparator { BookCondition("shelf = ?", [$0.rawValue]) }
            NotEqualToComparator { BookCondition("shelf <> ?", [$0.rawValue]) }
        }
    }

    public static let sortingOptions = SortingOptions {
        SortableBy(\BookEntity.$title)
        SortableBy(\BookEntity.$author)
        SortableBy(\BookEntity.$datePublished)
        SortableBy(\BookEntity.$dateRead)
    }

    public func entities(for identifiers: [UUID]) async throws -> [BookEntity] {
        try database.books(ids: identifiers)
    }

    public func suggestedEntities() async throws -> [BookEntity] {
        try database.allBooks()
    }

    public func entities(matching string: String) async throws -> [BookEntity] {
        try database.books(matching: string)
    }

    public func entities(matching comparators: [BookCondition], mode: ComparatorMode, sortedBy: [Sort<BookEntity>],
                         limit: Int?) async throws -> [BookEntity] {
        let columns: [PartialKeyPath<BookEntity>: String] = [
            \BookEntity.$title: "title", \BookEntity.$author: "author",
            \BookEntity.$datePublished: "datePublished", \BookEntity.$dateRead: "dateRead",
        ]
        let order = sortedBy.compactMap { sort in
            columns[sort.by].map { (column: $0, ascending: sort.order == .ascending) }
        }
        return try database.books(where: comparators, matchAll: mode == .and, orderBy: order, limit: limit)
    }
}

extension BookCondition {
    /// Text equal to a value, ignoring case and diacritics.
    static func text(_ column: String, equalTo value: String) -> BookCondition {
        BookCondition("fold(\(column)) = fold(?)", [value])
    }

    /// Text different from a value, ignoring case and diacritics.
    static func text(_ column: String, notEqualTo value: String) -> BookCondition {
        BookCondition("fold(\(column)) <> fold(?)", [value])
    }

    /// Text containing a value, ignoring case and diacritics.
    static func text(_ column: String, contains value: String) -> BookCondition {
        BookCondition("instr(fold(\(column)), fold(?)) > 0", [value])
    }

    /// Text starting with a value, ignoring case and diacritics.
    static func text(_ column: String, hasPrefix value: String) -> BookCondition {
        BookCondition("substr(fold(\(column)), 1, length(fold(?))) = fold(?)", [value, value])
    }

    /// Text ending with a value, ignoring case and diacritics.
    static func text(_ column: String, hasSuffix value: String) -> BookCondition {
        BookCondition("substr(fold(\(column)), -length(fold(?))) = fold(?) AND length(fold(?)) > 0", [value, value, value])
    }

    /// A date compared with `=`, `<`, `<=`, `>` or `>=`.
    static func date(_ column: String, _ comparison: String, _ value: Date) -> BookCondition {
        BookCondition("\(column) \(comparison) ?", [value.timeIntervalSince1970])
    }

    /// A date between two dates, both included.
    static func date(_ column: String, between lower: Date, and upper: Date) -> BookCondition {
        BookCondition("\(column) BETWEEN ? AND ?", [lower.timeIntervalSince1970, upper.timeIntervalSince1970])
    }
}

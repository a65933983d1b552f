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
            EqualToComparator { BookCondition.text("titleKey", equalTo: $0) }
            NotEqualToComparator { BookCondition.text("titleKey", notEqualTo: $0) }
            ContainsComparator { BookCondition.text("titleKey", contains: $0) }
            HasPrefixComparator { BookCondition.text("titleKey", hasPrefix: $0) }
            HasSuffixComparator { BookCondition.text("titleKey", hasSuffix: $0) }
        }
        Property(\BookEntity.$author) {
            EqualToComparator { BookCondition.text("authorKey", equalTo: $0) }
            NotEqualToComparator { BookCondition.text("authorKey", notEqualTo: $0) }
            ContainsComparator { BookCondition.text("authorKey", contains: $0) }
            HasPrefixComparator { BookCondition.text("authorKey", hasPrefix: $0) }
            HasSuffixComparator { BookCondition.text("authorKey", hasSuffix: $0) }
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

    /// The column each sortable property is stored in.
    nonisolated(unsafe) private static let sortColumns: [PartialKeyPath<BookEntity>: String] = [
        \BookEntity.$title: "title", \BookEntity.$author: "author",
        \BookEntity.$datePublished: "datePublished", \BookEntity.$dateRead: "dateRead"
    ]

    public func entities(
        matching comparators: [BookCondition], mode: ComparatorMode, sortedBy: [Sort<BookEntity>],
        limit: Int?
    ) async throws -> [BookEntity] {
        let order = sortedBy.compactMap { sort in
            Self.sortColumns[sort.by].map { (column: $0, ascending: sort.order == .ascending) }
        }
        return try database.books(where: comparators, matchAll: mode == .and, orderBy: order, limit: limit)
    }
}

extension BookCondition {
    // Text conditions compare a folded key column with the operand folded the same way, so
    // they ignore case and diacritics and bind only values. Lengths are in Unicode scalars, as
    // SQLite's substr counts them.

    /// Text equal to a value.
    static func text(_ key: String, equalTo value: String) -> BookCondition {
        BookCondition("\(key) = ?", [ValueComparison.fold(value)])
    }

    /// Text different from a value.
    static func text(_ key: String, notEqualTo value: String) -> BookCondition {
        BookCondition("\(key) <> ?", [ValueComparison.fold(value)])
    }

    /// Text containing a value.
    static func text(_ key: String, contains value: String) -> BookCondition {
        BookCondition("instr(\(key), ?) > 0", [ValueComparison.fold(value)])
    }

    /// Text starting with a value.
    static func text(_ key: String, hasPrefix value: String) -> BookCondition {
        let folded = ValueComparison.fold(value)
        return BookCondition("substr(\(key), 1, ?) = ?", [folded.unicodeScalars.count, folded])
    }

    /// Text ending with a value.
    static func text(_ key: String, hasSuffix value: String) -> BookCondition {
        let folded = ValueComparison.fold(value)
        return BookCondition("substr(\(key), ?) = ? AND ? > 0", [-folded.unicodeScalars.count, folded, folded.unicodeScalars.count])
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

// The app-side types the seed's listings use: navigation, an in-memory book database, a
// book catalog, orders and snippet views.
import Foundation
import IntentKit

/// Records which screen the app shows.
final class Navigator: @unchecked Sendable {
    static let shared = Navigator()
    private let lock = NSLock()
    private var screens: [String] = []

    var history: [String] { lock.withLock { screens } }

    func openShelf(_ shelf: Shelf) { record("shelf:\(shelf.rawValue)") }
    func openBook(_ book: BookEntity) { record("book:\(book.title)") }
    func reset() { lock.withLock { screens = [] } }

    private func record(_ screen: String) { lock.withLock { screens.append(screen) } }
}

/// The comparator mapping type of `BookQuery`: one condition on a book.
enum BookPredicate {
    case titleEquals(String)
    case titleContains(String)
    case publishedBefore(Date)
    case publishedAfter(Date)
    case readBefore(Date)
    case readAfter(Date)

    func matches(_ book: BookEntity) -> Bool {
        switch self {
        case .titleEquals(let title): return book.title == title
        case .titleContains(let part): return book.title.localizedCaseInsensitiveContains(part)
        case .publishedBefore(let date): return book.datePublished < date
        case .publishedAfter(let date): return book.datePublished > date
        case .readBefore(let date): return book.dateRead.map { $0 < date } ?? false
        case .readAfter(let date): return book.dateRead.map { $0 > date } ?? false
        }
    }
}

/// The books in the library, in memory.
final class Database: @unchecked Sendable {
    static let shared = Database()
    private let lock = NSLock()
    private var stored: [BookEntity] = []
    private var authors: [UUID: String] = [:]

    var books: [BookEntity] { lock.withLock { stored } }

    func add(book: BookEntity) {
        lock.withLock {
            stored.removeAll { $0.id == book.id }
            stored.append(book)
        }
    }

    func reset() { lock.withLock { stored = [] } }

    func book(for identifier: UUID) -> BookEntity? { books.first { $0.id == identifier } }

    func book(for identifier: UUID) -> BasicBookEntity? {
        books.contains { $0.id == identifier } ? BasicBookEntity(id: identifier) : nil
    }

    func setAuthor(_ author: String, of identifier: UUID) { lock.withLock { authors[identifier] = author } }
    func author(of identifier: UUID) -> String { lock.withLock { authors[identifier] ?? "" } }

    func findBooks(
        matching predicates: [BookPredicate], matchAll: Bool,
        sorts: [(keyPath: PartialKeyPath<BookEntity>, ascending: Bool)]
    ) -> [BookEntity] {
        let matching = books.filter { book in
            predicates.isEmpty || (matchAll ? predicates.allSatisfy { $0.matches(book) } : predicates.contains { $0.matches(book) })
        }
        return matching.sorted { left, right in
            for sort in sorts {
                let order: ComparisonResult
                switch sort.keyPath {
                case \BookEntity.$title: order = left.title.compare(right.title)
                case \BookEntity.$datePublished: order = left.datePublished.compare(right.datePublished)
                case \BookEntity.$dateRead: order = (left.dateRead ?? .distantPast).compare(right.dateRead ?? .distantPast)
                default: order = .orderedSame
                }
                if order != .orderedSame { return sort.ascending ? order == .orderedAscending : order == .orderedDescending }
            }
            return false
        }
    }
}

extension BookEntity {
    /// Who wrote the book, as the catalog knows it.
    var authorName: String { Database.shared.author(of: id) }

    init(title: String, author: String, published: String) {
        self.init(id: UUID(), title: title)
        datePublished = DateText.parse(published) ?? Date(timeIntervalSince1970: 0)
        Database.shared.setAuthor(author, of: id)
    }
}

/// A tiny offline book catalog.
final class BooksAPI: Sendable {
    static let shared = BooksAPI()

    let catalog: [BookEntity] = [
        BookEntity(title: "Where the Crawdads Sing", author: "Delia Owens", published: "2018-08-14"),
        BookEntity(title: "Nemesis", author: "Agatha Christie", published: "1971"),
        BookEntity(title: "Nemesis", author: "Philip Roth", published: "2010"),
        BookEntity(title: "Emma", author: "Jane Austen", published: "1815-12-23")
    ]

    func findBooks(named title: String, author: String?) async -> [BookEntity] {
        catalog.filter { book in
            book.title.localizedCaseInsensitiveCompare(title) == .orderedSame
                && (author.map { book.authorName.localizedCaseInsensitiveContains($0) } ?? true)
        }
    }
}

/// The app's model, as the suggested-entities listing reads it.
struct Model {
    struct Library { var books: [BookEntity] }
    static var shared: Model { Model(library: Library(books: Database.shared.books)) }
    var library: Library
}

/// An order of copies of a book.
struct OrderEntity: AppEntity, Identifiable {
    var id = UUID()
    var book: BookEntity
    var count: Int

    var displayRepresentation: DisplayRepresentation { "\(count) × \(book.title)" }
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
    static var defaultQuery = OrderQuery()
}

struct OrderQuery: EntityQuery {
    func entities(for identifiers: [UUID]) async throws -> [OrderEntity] { [] }
}

struct CoverView: SnippetView {
    var book: BookEntity
    var body: some SnippetView {
        Box("Cover") {
            Text(book.title).bold()
        }
    }
}

struct OrderPreview: SnippetView {
    var order: OrderEntity
    var body: some SnippetView {
        VStack {
            Text("Order preview")
            LabeledContent("Book", value: order.book.title)
            LabeledContent("Copies", value: order.count)
        }
    }
}

struct OrderConfirmation: SnippetView {
    var order: OrderEntity
    var body: some SnippetView {
        Text("Ordered \(order.count) of \(order.book.title)")
    }
}

extension BasicBookEntity {
    /// The book's title, from the database (the first listing shows no stored title).
    var title: String { (Database.shared.book(for: id) as BookEntity?)?.title ?? "" }
}

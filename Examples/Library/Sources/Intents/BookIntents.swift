import Foundation
import IntentKit

/// Orders copies of a book, after confirming the order.
public struct BuyBook: AppIntent {
    public static let title: LocalizedStringResource = "Buy Book"
    public static let description = IntentDescription("Orders copies of a book, after showing the order.")

    @Parameter(title: "Book")
    public var book: BookEntity

    @Parameter(title: "Count", default: 1)
    public var count: Int

    @Dependency var database: LibraryDatabase

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        When(\.$count, .greaterThan, 1) {
            Summary("Buy \(\.$count) copies of \(\.$book)")
        } otherwise: {
            Summary("Buy \(\.$book)") { \.$count }
        }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<OrderEntity> & ShowsSnippetView & ProvidesDialog {
        guard count > 0 else { throw Error.invalidCount(count) }
        let order = OrderEntity(bookTitle: book.title, count: count)
        try await requestConfirmation(
            output: .result(value: order, dialog: "Are you ready to order?") {
                OrderPreview(order: order, book: book)
            })
        try database.save(order)
        return .result(value: order, dialog: "Thank you for your order!") {
            OrderConfirmation(order: order)
        }
    }

    /// Why an order could not be made.
    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
        case invalidCount(Int)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .invalidCount(let count): "Cannot order \(count) copies: order at least one."
            }
        }
    }
}

/// Marks a book as read, on a date (today by default).
public struct MarkAsRead: AppIntent {
    public static let title: LocalizedStringResource = "Mark as Read"
    public static let description = IntentDescription("Moves a book to the Read shelf and records when you read it.")

    @Parameter(title: "Book")
    public var book: BookEntity

    @Parameter(title: "Read Date")
    public var date: Date?

    @Dependency var database: LibraryDatabase

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Mark \(\.$book) as read") { \.$date }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog {
        var updated = book
        updated.shelf = .read
        updated.dateRead = date ?? Date()
        try database.save(updated)
        return .result(value: updated, dialog: "Marked \(updated) as read.")
    }
}

/// Deletes a book from the library, after confirming.
public struct DeleteBook: AppIntent {
    public static let title: LocalizedStringResource = "Delete Book"
    public static let description = IntentDescription("Removes a book from your library.")

    @Parameter(title: "Book")
    public var book: BookEntity

    @Dependency var database: LibraryDatabase

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Delete \(\.$book)")
    }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        try await requestConfirmation(dialog: "Delete \(book) from your library?")
        try database.delete(book.id)
        return .result(dialog: "Deleted \(book).")
    }
}

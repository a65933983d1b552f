import Foundation
import IntentKit

/// An order of copies of a book.
public struct OrderEntity: AppEntity, Identifiable, Sendable {
    public var id: UUID

    @Property(title: "Book")
    public var bookTitle: String

    @Property(title: "Count")
    public var count: Int

    @Property(title: "Order Date")
    public var orderedAt: Date

    public var displayRepresentation: DisplayRepresentation { "\(count) × \(bookTitle)" }
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
    public static let defaultQuery = OrderQuery()

    public init(id: UUID) {
        self.id = id
    }

    public init(id: UUID = UUID(), bookTitle: String, count: Int, orderedAt: Date = Date()) {
        self.id = id
        self.bookTitle = bookTitle
        self.count = count
        self.orderedAt = orderedAt
    }
}

extension OrderEntity: ReflectableEntity {}

/// Finds orders; there are few, so they are all listed and filtered in memory.
public struct OrderQuery: EnumerableEntityQuery {
    public typealias Entity = OrderEntity

    public init() {}

    public func allEntities() async throws -> [OrderEntity] {
        try LibraryDatabase.shared().orders()
    }
}

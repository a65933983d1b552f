import Foundation
import IntentKit

/// A book in the library.
///
/// Its `@Property`s are what workflows query and read (`${book.author}`); `recommendedBy` is
/// a plain property, stored but not queryable.
public struct BookEntity: AppEntity, Identifiable, Sendable {
    public var id: UUID

    @Property(title: "Title")
    public var title: String

    @Property(title: "Author")
    public var author: String

    @Property(title: "Publishing Date")
    public var datePublished: Date

    @Property(title: "Read Date")
    public var dateRead: Date?

    @Property(title: "Shelf")
    public var shelf: Shelf

    public var recommendedBy: String?

    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(title)", subtitle: "\(author)")
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Book"
    public static let defaultQuery = BookQuery()

    public init(id: UUID) {
        self.id = id
    }

    public init(
        id: UUID = UUID(), title: String, author: String, datePublished: Date, dateRead: Date? = nil,
        shelf: Shelf = .wantToRead, recommendedBy: String? = nil
    ) {
        self.id = id
        self.title = title
        self.author = author
        self.datePublished = datePublished
        self.dateRead = dateRead
        self.shelf = shelf
        self.recommendedBy = recommendedBy
    }
}

extension BookEntity: ReflectableEntity {}

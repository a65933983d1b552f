import Foundation
import IntentKit

/// "Opens" screens of the app: each navigation is recorded in the database, so it can be
/// seen with `shortcuts perform Library.CurrentScreen` and in tests.
public struct Navigator: Sendable {
    let database: LibraryDatabase

    public init(database: LibraryDatabase) {
        self.database = database
    }

    /// Shows a shelf.
    public func openShelf(_ shelf: Shelf) throws {
        try database.recordNavigation(screen: "shelf", detail: shelf.rawValue)
    }

    /// Shows a book.
    public func openBook(_ book: BookEntity) throws {
        try database.recordNavigation(screen: "book", detail: book.title)
    }
}

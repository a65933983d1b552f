import Foundation
import IntentKit
import SpotlightKit

/// The App Shortcuts of the Library.
public struct LibraryShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: OpenCurrentlyReading(),
            phrases: ["Open Currently Reading in \(.applicationName)", "Show what I am reading in \(.applicationName)"],
            shortTitle: "Currently Reading", systemImageName: "books.vertical.fill")
        AppShortcut(
            intent: OpenShelf(),
            phrases: ["Open \(\.$shelf) in \(.applicationName)"],
            shortTitle: "Open Shelf", systemImageName: "books.vertical")
        AppShortcut(
            intent: OpenBook(),
            phrases: ["Open \(\.$book) in \(.applicationName)"],
            shortTitle: "Open Book", systemImageName: "book")
        AppShortcut(
            intent: AddBook(),
            phrases: ["Add a book to \(.applicationName)"],
            shortTitle: "Add Book", systemImageName: "plus")
    }
}

/// The Library: the reading app of the App Intents seed, backed by SQLite in
/// `$SHORTCUTS_HOME/library.sqlite`, with an offline catalog of real books, and its books
/// searchable in the `library` index (``LibrarySpotlightDelegate``).
public enum LibraryApp {
    /// The name of the Library's search index.
    public static let searchIndexName = "library"

    /// The Library's search index, kept by ``LibrarySpotlightDelegate``.
    public static let searchIndex = AppSearchIndex(name: searchIndexName, entityTypes: [BookEntity.self]) {
        try LibrarySpotlightDelegate.shared()
    }

    /// The app, as the engine and the command line install it.
    public static let app = IntentApp(
        name: "Library",
        intents: [
            OpenCurrentlyReading.self, OpenShelf.self, OpenBook.self, AddBook.self, BuyBook.self, MarkAsRead.self,
            DeleteBook.self, CurrentScreen.self, SearchBooks.self
        ],
        entities: [BookEntity.self, OrderEntity.self],
        shortcuts: LibraryShortcuts.self,
        strings: strings,
        features: [searchIndex],
        setUp: {
            let database = try LibraryDatabase.shared()
            AppDependencyManager.shared.add(dependency: database)
            AppDependencyManager.shared.add(dependency: Navigator(database: database))
        })

    static var strings: StringsCatalog {
        (try? StringsCatalog(files: LibraryResources.files)) ?? StringsCatalog()
    }
}

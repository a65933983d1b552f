import Foundation
import IntentKit
import SpotlightKit

/// Opens the shelf of books being read.
public struct OpenCurrentlyReading: AppIntent {
    public static let title: LocalizedStringResource = "Open Currently Reading"
    public static let description = IntentDescription("Shows the books you are reading.")
    public static let openAppWhenRun = true

    @Dependency var navigator: Navigator

    public init() {}

    public func perform() async throws -> some IntentResult {
        try navigator.openShelf(.currentlyReading)
        return .result()
    }
}

/// Opens a shelf.
public struct OpenShelf: AppIntent {
    public static let title: LocalizedStringResource = "Open Shelf"
    public static let description = IntentDescription("Shows the books on a shelf.")
    public static let openAppWhenRun = true

    @Parameter(title: "Shelf")
    public var shelf: Shelf

    @Dependency var navigator: Navigator

    public init() {}

    public init(shelf: Shelf) {
        self.shelf = shelf
    }

    public static var parameterSummary: some ParameterSummary {
        Switch(\.$shelf) {
            Case(.currentlyReading) { Summary("Open the books I am reading") }
            DefaultCase { Summary("Open \(\.$shelf)") }
        }
    }

    public func perform() async throws -> some IntentResult {
        try navigator.openShelf(shelf)
        return .result()
    }
}

/// Opens a book, and records the engagement in the library's index, so books opened often
/// rank higher in later searches (shown by `shortcuts search --explain`).
public struct OpenBook: AppIntent {
    public static let title: LocalizedStringResource = "Open Book"
    public static let description = IntentDescription("Shows a book of your library.")
    public static let openAppWhenRun = true

    @Parameter(title: "Book")
    public var book: BookEntity

    @Dependency var navigator: Navigator

    public init() {}

    public init(book: BookEntity) {
        self.book = book
    }

    public static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$book)")
    }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        try navigator.openBook(book)
        try await LibrarySpotlightDelegate.shared().searchableIndex.recordEngagement(with: book)
        return .result(dialog: "Opened \(book).")
    }
}

/// Tells which screen the app shows now.
public struct CurrentScreen: AppIntent {
    public static let title: LocalizedStringResource = "Current Screen"
    public static let description = IntentDescription("Returns the screen the Library shows now, such as \"book: Emma\".")

    @Dependency var database: LibraryDatabase

    public init() {}

    public func perform() async throws -> some IntentResult & ReturnsValue<String> & ProvidesDialog {
        let screen =
            try database.navigationHistory().last.map { entry in
                entry.detail.map { "\(entry.screen): \($0)" } ?? entry.screen
            } ?? "home"
        return .result(value: screen, dialog: "The Library shows \(screen).")
    }
}

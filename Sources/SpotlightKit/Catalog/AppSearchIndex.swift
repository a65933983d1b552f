import Foundation
import IntentKit

/// A search index an app keeps, declared among the app's features so that the command line
/// and workflows find it: its name, the entity types its items stand for, and how to open the
/// ``IndexMaintainer`` that keeps it.
///
/// The maintainer is opened only when the index is used, so declaring it costs nothing.
///
/// ```swift
/// public enum LibraryApp {
///     public static let searchIndex = AppSearchIndex(name: "library", entityTypes: [BookEntity.self]) {
///         try LibrarySpotlightDelegate.shared()
///     }
///     public static let app = IntentApp(name: "Library", intents: [AddBook.self, SearchBooks.self],
///                                       features: [searchIndex])
/// }
/// ```
public struct AppSearchIndex: AppFeature {
    /// The index name; its file is `NAME.sqlite` in ``SearchIndexCatalog/defaultDirectory(environment:)``.
    public var name: String
    /// The entity types whose items the index holds.
    public var entityTypes: [any IndexedEntity.Type]
    /// Opens the maintainer (the same one every time within a process).
    public var maintainer: @Sendable () async throws -> any IndexMaintainer

    /// Declares an index.
    ///
    /// ```swift
    /// let index = AppSearchIndex(name: "journal", entityTypes: [EntryEntity.self]) { try JournalIndexer.shared() }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - entityTypes: The entity types whose items the index holds.
    ///   - maintainer: Opens the maintainer.
    public init(
        name: String, entityTypes: [any IndexedEntity.Type] = [],
        maintainer: @escaping @Sendable () async throws -> any IndexMaintainer
    ) {
        self.name = name
        self.entityTypes = entityTypes
        self.maintainer = maintainer
    }
}

extension IntentCatalog {
    /// The search indexes the installed apps keep, with their apps.
    ///
    /// ```swift
    /// for (app, index) in catalog.searchIndexes { print(app.name, index.name) }
    /// ```
    public var searchIndexes: [(app: IntentApp, index: AppSearchIndex)] {
        apps.flatMap { app in app.features.compactMap { $0 as? AppSearchIndex }.map { (app, $0) } }
    }

    /// The installed entity types that can be indexed, with their names (`Library.BookEntity`).
    public var indexedEntities: [(name: String, type: any IndexedEntity.Type, app: IntentApp)] {
        allEntities.compactMap { found in
            (found.type as? any IndexedEntity.Type).map { (found.name, $0, found.app) }
        }
    }
}

import Foundation
import IntentKit
import ShortcutsCLI
import SpotlightKit
import WorkflowKit

/// A small app whose notes are indexed, for the `search` step: its index lives in a folder
/// of the test's own.
struct NoteEntity: AppEntity, Identifiable, Sendable, IndexedEntity {
    var id: Int
    @Property(title: "Title") var title: String
    @Property(title: "Body") var body: String
    var displayRepresentation: DisplayRepresentation { "\(title)" }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Note"
    static let defaultQuery = NoteQuery()

    /// The default attributes, and the body as text content.
    var attributeSet: SearchableItemAttributeSet {
        var attributes = defaultAttributeSet
        attributes.textContent = body
        return attributes
    }

    init(id: Int) { self.id = id }

    init(id: Int, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }

    static let all = [
        NoteEntity(id: 1, title: "Crawdads", body: "Notes on the marsh and its crawdads"),
        NoteEntity(id: 2, title: "Marsh birds", body: "Herons and egrets in the marsh"),
        NoteEntity(id: 3, title: "Savanna", body: "Lions at dusk")
    ]
}

extension NoteEntity: ReflectableEntity {}

struct NoteQuery: EnumerableEntityQuery {
    typealias Entity = NoteEntity
    func allEntities() async throws -> [NoteEntity] { NoteEntity.all }
}

/// A folder of notes, not indexed.
struct FolderEntity: AppEntity, Identifiable, Sendable {
    var id: String
    var displayRepresentation: DisplayRepresentation { "\(id)" }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Folder"
    static let defaultQuery = FolderQuery()
}

struct FolderQuery: EnumerableEntityQuery {
    typealias Entity = FolderEntity
    func allEntities() async throws -> [FolderEntity] { [FolderEntity(id: "Inbox")] }
}

/// Returns the title of a note given as a parameter.
struct ReadNote: AppIntent {
    static let title: LocalizedStringResource = "Read Note"
    @Parameter(title: "Note") var note: NoteEntity
    init() {}
    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        .result(value: "Read \(note.title)")
    }
}

/// Indexes every note before each search.
final class NotesIndexer: IndexMaintainer {
    let searchableIndex: SearchableIndex

    init(directory: URL) throws {
        searchableIndex = try SearchableIndex(name: "notes", database: try SearchIndexCatalog.openIndexDatabase(named: "notes", in: directory))
    }

    func prepareForSearch() async throws { try await searchableIndex.indexAppEntities(NoteEntity.all) }
    func isIndexingSwitchedOff() async throws -> Bool { false }
    func switchIndexingOff() async throws { try await searchableIndex.deleteAllSearchableItems() }
    func rebuildIndex(progress: @escaping @Sendable (IndexingProgress) -> Void) async throws { try await prepareForSearch() }
    func reindexAll() async throws { try await prepareForSearch() }
    func reindex(identifiers: [String]) async throws { try await prepareForSearch() }
}

/// The Notes app, with its index (and any index files) in a new folder.
struct NotesFixture {
    let directory: URL
    let catalog: IntentCatalog
    let searchIndexes: SearchIndexCatalog
    /// The search `search` steps use, as the command line wires it.
    let search: any WorkflowSearchProvider

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)")
        let indexer = try NotesIndexer(directory: directory)
        let notes = IntentApp(
            name: "Notes", intents: [ReadNote.self], entities: [NoteEntity.self, FolderEntity.self],
            features: [AppSearchIndex(name: "notes", entityTypes: [NoteEntity.self]) { indexer }])
        catalog = IntentCatalog(apps: [notes])
        searchIndexes = SearchIndexCatalog(intents: catalog, directory: directory)
        search = SpotlightSearchProvider(indexes: searchIndexes)
    }
}

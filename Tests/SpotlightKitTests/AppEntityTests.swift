import Foundation
import IntentKit
import Synchronization
import Testing

@testable import SpotlightKit

// MARK: - Entities for the tests

enum Genre: String, AppEnum {
    case essay, novel
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Genre"
    static let caseDisplayRepresentations: [Genre: DisplayRepresentation] = [.essay: "Essay", .novel: "Novel"]
}

/// A note with the default attribute set.
struct NoteEntity: AppEntity, Identifiable, Sendable, IndexedEntity {
    var id: String
    @Property(title: "Title") var title: String
    @Property(title: "Author") var author: String
    @Property(title: "Pages") var pages: Int
    @Property(title: "Genre") var genre: Genre
    @Property(title: "Written") var written: Date?

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(title)", subtitle: "\(author)") }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Note"
    static let defaultQuery = NoteQuery()

    init(id: String, title: String, author: String, pages: Int = 10, genre: Genre = .essay, written: Date? = nil) {
        self.id = id
        self.title = title
        self.author = author
        self.pages = pages
        self.genre = genre
        self.written = written
    }
}

/// The notes that exist, shared by the tests (each test uses its own identifiers).
enum NoteStore {
    static let notes = Mutex<[String: NoteEntity]>([:])

    static func add(_ notes: [NoteEntity]) {
        self.notes.withLock { stored in for note in notes { stored[note.id] = note } }
    }

    static func remove(_ id: String) {
        _ = notes.withLock { $0.removeValue(forKey: id) }
    }
}

struct NoteQuery: EnumerableEntityQuery {
    typealias Entity = NoteEntity
    func allEntities() async throws -> [NoteEntity] { NoteStore.notes.withLock { Array($0.values) } }
}

/// A sketch with its own attribute set.
struct SketchEntity: AppEntity, Identifiable, Sendable, IndexedEntity {
    var id: Int
    @Property(title: "Name") var name: String
    var displayRepresentation: DisplayRepresentation { "\(name)" }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sketch"
    static let defaultQuery = SketchQuery()
    static var entityTypeIdentifier: String { "com.example.sketch" }

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    var attributeSet: SearchableItemAttributeSet {
        var set = SearchableItemAttributeSet(contentType: .png)
        set.displayName = name
        set.keywords = ["sketch"]
        return set
    }
}

struct SketchQuery: EnumerableEntityQuery {
    typealias Entity = SketchEntity
    func allEntities() async throws -> [SketchEntity] { [SketchEntity(id: 1, name: "Heron"), SketchEntity(id: 2, name: "Marsh")] }
}

// MARK: - Tests

@Suite("App entities")
struct AppEntityTests {
    @Test func theDefaultAttributeSetComesFromTheDisplayRepresentationAndProperties() {
        let written = Date(timeIntervalSince1970: 1_700_000_000)
        let note = NoteEntity(id: "n", title: "Field notes", author: "Delia Owens", pages: 42, genre: .novel, written: written)
        let set = note.attributeSet
        #expect(set.title == "Field notes")
        #expect(set.contentDescription == "Delia Owens")
        #expect(set.displayName == nil)
        #expect(set[customKey: "author"] == .string("Delia Owens"))
        #expect(set[customKey: "pages"] == .number(42))
        #expect(set[customKey: "genre"] == .string("novel"))
        #expect(set[customKey: "written"] == .date(written))
        // A property named like a built-in attribute keeps out of the custom attributes.
        #expect(set[customKey: "title"] == nil)
        #expect(set.associatedAppEntity == nil)
    }

    @Test func anItemForAnEntityCarriesItsReference() {
        let item = SearchableItem(appEntity: SketchEntity(id: 7, name: "Heron"))
        #expect(item.uniqueIdentifier == "x-entity://com.example.sketch/7")
        #expect(item.domainIdentifier == "com.example.sketch")
        #expect(item.attributeSet.contentType == "public.png")
        #expect(item.attributeSet.keywords == ["sketch"])
        #expect(item.associatedAppEntity == AppEntityReference(typeIdentifier: "com.example.sketch", identifier: "7"))
        #expect(AppEntityReference(uniqueIdentifier: item.uniqueIdentifier) == item.associatedAppEntity)
        #expect(AppEntityReference(uniqueIdentifier: "x-entity://Note/a/b")?.identifier == "a/b")
        #expect(AppEntityReference(uniqueIdentifier: "x-store://s/photo/1") == nil)
        #expect(AppEntityReference(uniqueIdentifier: "x-entity:///1") == nil)
    }

    @Test func indexedEntitiesAreFoundAsEntitiesThroughTheirQuery() async throws {
        let prefix = UUID().uuidString
        let notes = [
            NoteEntity(id: prefix + "-1", title: "Crawdads of the Sierra", author: "Delia Owens", pages: 300),
            NoteEntity(id: prefix + "-2", title: "Marsh birds", author: "Delia Owens", pages: 12),
            NoteEntity(id: prefix + "-3", title: "Savanna notes", author: "Mark Owens", pages: 80)
        ]
        NoteStore.add(notes)
        let index = try makeIndex()
        try await index.indexAppEntities(notes)
        try await index.indexAppEntities([SketchEntity(id: 1, name: "Heron")])

        let owens = try await index.searchAppEntities("owens", ofType: NoteEntity.self)
        #expect(Set(owens.map(\.id)) == Set(notes.map(\.id)))
        #expect(try await index.searchAppEntities("delia marsh", ofType: NoteEntity.self).map(\.title) == ["Marsh birds"])
        // Custom attributes made from properties filter results.
        let long = try await index.searchAppEntities(
            "owens", ofType: NoteEntity.self,
            context: UserQueryContext(filterQueries: ["pages >= 50"]))
        #expect(Set(long.map(\.id)) == [prefix + "-1", prefix + "-3"])
        #expect(try await index.searchAppEntities("heron", ofType: SketchEntity.self).map(\.name) == ["Heron"])
        #expect(try await index.searchAppEntities("heron", ofType: NoteEntity.self).isEmpty)

        // An entity that no longer exists is left out, even while its item is still indexed.
        NoteStore.remove(prefix + "-2")
        #expect(try await index.searchAppEntities("marsh", ofType: NoteEntity.self).isEmpty)

        try await index.deleteAppEntities(identifiedBy: [prefix + "-1"], ofType: NoteEntity.self)
        #expect(try await index.searchAppEntities("owens", ofType: NoteEntity.self).map(\.id) == [prefix + "-3"])
        try await index.deleteAppEntities(ofType: NoteEntity.self)
        #expect(try await index.itemCount() == 1)
    }

    @Test func resolvingMixedItemsKeepsTheirOrder() async throws {
        let id = UUID().uuidString
        NoteStore.add([NoteEntity(id: id, title: "Heron notes", author: "A")])
        let items = [
            SearchableItem(appEntity: SketchEntity(id: 2, name: "Marsh")),
            SearchableItem(uniqueIdentifier: "plain", attributeSet: SearchableItemAttributeSet()),
            SearchableItem(appEntity: NoteEntity(id: id, title: "Heron notes", author: "A"))
        ]
        let resolved = try await AppEntityResolver.entities(for: items, among: [NoteEntity.self, SketchEntity.self])
        #expect(resolved.map { $0?.displayRepresentation.title.description } == ["Marsh", nil, "Heron notes"])
        #expect(AppEntityResolver.filterQuery(for: NoteEntity.self) == #"appEntityType == "NoteEntity""#)
    }
}

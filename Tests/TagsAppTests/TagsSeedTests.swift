import Foundation
import SpotlightKit
import Testing

@testable import TagsApp

/// The flow of the Core Data Spotlight talk, on the Tags app's store and delegate.
@Suite("Tags: the talk's flow")
struct TagsSeedTests {
    let directory: URL
    let database: TagsDatabase

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try TagsDatabase(path: directory.appendingPathComponent("tags.sqlite").path)
    }

    func delegate() throws -> TagsSpotlightDelegate {
        try TagsSpotlightDelegate(
            database: database,
            indexDatabase: try SearchIndexCatalog.openIndexDatabase(named: "tags", in: directory.appendingPathComponent("indexes")))
    }

    /// What the app's search field finds: `(keywords == "TEXT*"cwdt)`, mapped back to photos.
    func photos(taggedLike text: String, in delegate: TagsSpotlightDelegate) async throws -> [PhotoEntity] {
        let query = SearchQuery(
            queryString: "(keywords == \"\(text)*\"cwdt)", attributes: ["displayName", "keywords"],
            index: delegate.searchableIndex)
        var rows: [Int] = []
        for try await item in query.results {
            if let object = StoreObjectID(uniqueIdentifier: item.uniqueIdentifier), object.table == "photo" { rows.append(Int(object.rowID)) }
        }
        return try database.photos(ids: rows)
    }

    @Test func aTaggedPhotoIsFoundByKeywordDeletingTheIndexKeepsThePhotosAndRestartingRestoresIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let arch = try database.addPhoto(named: "Arch at sunset", tags: ["Natural Bridges State Park"])
        try database.addPhoto(named: "Beach", tags: ["Ocean"])

        // The two lines.
        let spotlight = try delegate()
        let updates = spotlight.indexUpdates()
        try spotlight.startIndexing()
        try await spotlight.waitUntilIndexed()
        var iterator = updates.makeAsyncIterator()
        let update = try #require(await iterator.next())
        #expect(update.storeIdentifier == spotlight.storeIdentifier)

        #expect(try await photos(taggedLike: "natural", in: spotlight).map(\.name) == ["Arch at sunset"])
        #expect(try await photos(taggedLike: "NATURAL BRIDGES", in: spotlight).map(\.id) == [arch.id])
        #expect(try await photos(taggedLike: "ocean", in: spotlight).map(\.name) == ["Beach"])

        // Spotlight shows two results for the tag: the tag itself and the tagged photo, each an entity.
        var results: [SearchableItem] = []
        let context = UserQueryContext(fetchAttributes: ["displayName", "contentType"] + AppEntityResolver.referenceAttributes)
        for try await response in UserQuery(userQueryString: "natural bridges", context: context, index: spotlight.searchableIndex).responses {
            if case .item(let result) = response { results.append(result.item) }
        }
        #expect(Set(results.compactMap(\.associatedAppEntity?.typeIdentifier)) == ["PhotoEntity", "TagEntity"])
        #expect(Set(results.compactMap(\.attributeSet.contentType)) == ["public.image", "public.text"])

        // Tagging later reaches the index.
        _ = try database.tag(photoID: arch.id, with: ["Utah"])
        try await spotlight.waitUntilIndexed()
        #expect(try await photos(taggedLike: "utah", in: spotlight).map(\.name) == ["Arch at sunset"])

        // Deleting the index leaves the photos.
        try await spotlight.switchIndexingOff()
        #expect(try await photos(taggedLike: "natural", in: spotlight).isEmpty)
        #expect(try await spotlight.searchableIndex.itemCount() == 0)
        #expect(try database.allPhotos().map(\.name) == ["Arch at sunset", "Beach"])

        // A relaunch keeps indexing off; restarting it restores the index.
        let relaunched = try delegate()
        #expect(try await !relaunched.startIndexingUnlessSwitchedOff())
        #expect(try await photos(taggedLike: "natural", in: relaunched).isEmpty)
        try await relaunched.rebuildIndex()
        #expect(relaunched.isIndexingEnabled)
        #expect(try await photos(taggedLike: "natural", in: relaunched).map(\.name) == ["Arch at sunset"])
        #expect(try await relaunched.searchableIndex.itemCount() == 5)  // two photos, three tags
        relaunched.stopIndexing()
    }

    @Test func photosAndTagsAreIndexedEntities() {
        let photo = PhotoEntity(id: 3, name: "Owachomo", tags: ["Utah"])
        let item = SearchableItem(appEntity: photo)
        #expect(item.attributeSet.contentType == "public.image")
        #expect(item.attributeSet.displayName == "Owachomo")
        #expect(item.attributeSet.keywords == ["Utah"])
        #expect(item.uniqueIdentifier == "x-entity://PhotoEntity/3")
        #expect(TagEntity(id: 1, name: "Utah").attributeSet.displayName == "Utah")
        try? FileManager.default.removeItem(at: directory)
    }
}

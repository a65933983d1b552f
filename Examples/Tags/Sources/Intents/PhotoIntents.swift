import Foundation
import IntentKit
import SpotlightKit

/// Adds a photo, with tags.
public struct AddPhoto: AppIntent {
    public static let title: LocalizedStringResource = "Add Photo"
    public static let description = IntentDescription("Adds a photo with a name and tags.")

    @Parameter(title: "Name", requestValueDialog: "What is the photo called?")
    public var name: String

    @Parameter(title: "Tags")
    public var tags: [String]?

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Add photo \(\.$name)") { \.$tags }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<PhotoEntity> & ProvidesDialog {
        let photo = try TagsDatabase.shared().addPhoto(named: name, tags: tags ?? [])
        return .result(value: photo, dialog: "Added \(photo).")
    }
}

/// Tags a photo.
public struct TagPhoto: AppIntent {
    public static let title: LocalizedStringResource = "Tag Photo"
    public static let description = IntentDescription("Adds a tag to a photo.")

    @Parameter(title: "Photo")
    public var photo: PhotoEntity

    @Parameter(title: "Tag", requestValueDialog: "Which tag?")
    public var tag: String

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Tag \(\.$photo) with \(\.$tag)")
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<PhotoEntity> & ProvidesDialog {
        guard let tagged = try TagsDatabase.shared().tag(photoID: photo.id, with: [tag]) else {
            throw IntentError.entityNotFound(entity: "Photo", text: photo.name)
        }
        return .result(value: tagged, dialog: "Tagged \(tagged.name) with \(tag).")
    }
}

/// Finds photos by tag with a full-text search of the index, as the Tags app's search field
/// does: `(keywords == "TEXT*"cwdt)` over the indexed keywords; without text, every photo.
public struct FindPhotos: AppIntent {
    public static let title: LocalizedStringResource = "Find Photos"
    public static let description = IntentDescription(
        "Finds the photos whose tags start with the text, through the search index; all photos without text.")

    @Parameter(title: "Tag")
    public var tag: String?

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Find photos tagged \(\.$tag)")
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<[PhotoEntity]> & ProvidesDialog {
        let database = try TagsDatabase.shared()
        guard let text = tag?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            let photos = try database.allPhotos()
            return .result(value: photos, dialog: "All photos: \(photos.count).")
        }
        let delegate = try TagsSpotlightDelegate.shared()
        if try await delegate.isIndexingSwitchedOff() {
            return .result(value: [], dialog: "Search is off: the index was deleted.")
        }
        try await delegate.prepareForSearch()
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let queryString = "(keywords == \"" + escaped + "*\"cwdt)"
        let query = SearchQuery(queryString: queryString, attributes: ["displayName", "keywords"], index: delegate.searchableIndex)
        var found: [SearchableItem] = []
        for try await item in query.results { found.append(item) }
        let rows = found.compactMap { StoreObjectID(uniqueIdentifier: $0.uniqueIdentifier) }.filter { $0.table == "photo" }
        let photos = try database.photos(ids: rows.map { Int($0.rowID) })
        return .result(value: photos, dialog: "Photos tagged \(text): \(photos.count).")
    }
}

import Foundation
import IntentKit
import SpotlightKit

/// A photo with the tags a person gave it.
public struct PhotoEntity: AppEntity, Identifiable, Sendable {
    /// The photo's row in the `photo` table.
    public var id: Int

    @Property(title: "Name")
    public var name: String

    @Property(title: "Tags")
    public var tags: [String]

    public var displayRepresentation: DisplayRepresentation {
        tags.isEmpty ? "\(name)" : DisplayRepresentation(title: "\(name)", subtitle: "\(tags.joined(separator: ", "))")
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Photo"
    public static let defaultQuery = PhotoQuery()

    public init(id: Int) {
        self.id = id
    }

    public init(id: Int, name: String, tags: [String]) {
        self.id = id
        self.name = name
        self.tags = tags
    }
}

extension PhotoEntity: ReflectableEntity {}

/// A photo is found by its tags: an image item whose keywords are the tags, as in the Tags
/// app's Spotlight delegate.
extension PhotoEntity: IndexedEntity {
    public var attributeSet: SearchableItemAttributeSet {
        var attributes = SearchableItemAttributeSet(contentType: .image)
        attributes.displayName = name
        attributes.keywords = tags
        return attributes
    }
}

/// Finds photos in the Tags store: all of them, by identifier, or by name.
public struct PhotoQuery: EnumerableEntityQuery, EntityStringQuery {
    public typealias Entity = PhotoEntity

    public init() {}

    public func allEntities() async throws -> [PhotoEntity] {
        try TagsDatabase.shared().allPhotos()
    }

    public func entities(for identifiers: [Int]) async throws -> [PhotoEntity] {
        try TagsDatabase.shared().photos(ids: identifiers)
    }

    public func suggestedEntities() async throws -> [PhotoEntity] {
        try await allEntities()
    }

    public func entities(matching string: String) async throws -> [PhotoEntity] {
        let folded = ValueComparison.fold(string)
        return try await allEntities().filter { ValueComparison.fold($0.name).contains(folded) }
    }
}

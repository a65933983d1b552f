import Foundation
import IntentKit
import SpotlightKit

/// A tag: a name given to photos.
public struct TagEntity: AppEntity, Identifiable, Sendable {
    /// The tag's row in the `tag` table.
    public var id: Int

    @Property(title: "Name")
    public var name: String

    public var displayRepresentation: DisplayRepresentation { "\(name)" }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Tag"
    public static let defaultQuery = TagQuery()

    public init(id: Int) {
        self.id = id
    }

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

extension TagEntity: ReflectableEntity {}

/// A tag is found by its name: a text item, as in the Tags app's Spotlight delegate.
extension TagEntity: IndexedEntity {
    public var attributeSet: SearchableItemAttributeSet {
        var attributes = SearchableItemAttributeSet(contentType: .text)
        attributes.displayName = name
        return attributes
    }
}

/// Every tag of the Tags store.
public struct TagQuery: EnumerableEntityQuery {
    public typealias Entity = TagEntity

    public init() {}

    public func allEntities() async throws -> [TagEntity] {
        try TagsDatabase.shared().allTags()
    }
}

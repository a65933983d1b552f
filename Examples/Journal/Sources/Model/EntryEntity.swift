import Foundation
import IntentKit
import SpotlightKit

/// A diary entry: a title, the text, keywords and the day it was written.
public struct EntryEntity: AppEntity, Identifiable, Sendable {
    public var id: UUID

    @Property(title: "Title")
    public var title: String

    @Property(title: "Text")
    public var text: String

    @Property(title: "Keywords")
    public var keywords: [String]

    @Property(title: "Date")
    public var date: Date

    /// When the entry was last opened; recent use ranks it higher in searches.
    public var lastOpened: Date?

    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(title)", subtitle: "\(DateText.format(date))")
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Entry"
    public static let defaultQuery = EntryQuery()

    public init(id: UUID) {
        self.id = id
    }

    public init(id: UUID = UUID(), title: String, text: String, keywords: [String] = [], date: Date, lastOpened: Date? = nil) {
        self.id = id
        self.title = title
        self.text = text
        self.keywords = keywords
        self.date = date
        self.lastOpened = lastOpened
    }
}

extension EntryEntity: ReflectableEntity {}

/// A text item, as the semantic-search talk advises: `title` and `textContent` set, keywords,
/// the last-used date as the freshness signal, and the day as a custom `date` attribute.
extension EntryEntity: IndexedEntity {
    public var attributeSet: SearchableItemAttributeSet {
        var attributes = SearchableItemAttributeSet(contentType: .text)
        attributes.title = title
        attributes.textContent = text
        attributes.keywords = keywords
        attributes.lastUsedDate = lastOpened
        attributes[customKey: "date"] = .date(date)
        return attributes
    }
}

/// Finds entries by identifier, by words of the title, or all of them.
public struct EntryQuery: EnumerableEntityQuery, EntityStringQuery {
    public typealias Entity = EntryEntity

    public init() {}

    public func allEntities() async throws -> [EntryEntity] {
        try JournalDatabase.shared().allEntries()
    }

    public func entities(for identifiers: [UUID]) async throws -> [EntryEntity] {
        try JournalDatabase.shared().entries(ids: identifiers)
    }

    public func suggestedEntities() async throws -> [EntryEntity] {
        try await allEntities()
    }

    public func entities(matching string: String) async throws -> [EntryEntity] {
        let folded = ValueComparison.fold(string)
        return try await allEntities().filter { ValueComparison.fold($0.title).contains(folded) }
    }
}

import Foundation
import Testing

@testable import SpotlightKit

/// Engagement recorded where no query object is at hand: an intent or step that opens an item.
struct EngagementTests {
    func engagement(of identifier: String, searching text: String, in index: SearchableIndex) async throws -> Double? {
        try await userSearch(text, in: index).items.first { $0.item.uniqueIdentifier == identifier }?.explanation.engagement
    }

    @Test func openingAnItemOrAnEntityRaisesItsEngagement() async throws {
        let index = try makeIndex()
        let note = NoteEntity(id: "engaged-1", title: "Field notes", author: "Delia Owens")
        // One item made by indexAppEntities, one made by a store's delegate: its own identifier,
        // associated with the entity.
        var delegated = SearchableItemAttributeSet(contentType: .text)
        delegated.title = "Marsh notes"
        delegated.associateAppEntity(NoteEntity(id: "engaged-2", title: "Marsh notes", author: "Delia Owens"))
        try await index.indexAppEntities([note])
        try await index.indexSearchableItems([
            SearchableItem(uniqueIdentifier: "x-store://s/note/2", attributeSet: delegated), textItem("plain", title: "Other notes")
        ])
        let noteItem = AppEntityReference(note).uniqueIdentifier
        #expect(try await engagement(of: noteItem, searching: "notes", in: index) == 0)

        try await index.recordEngagement(with: note)
        #expect(try await engagement(of: noteItem, searching: "notes", in: index) == 0.5)
        try await index.recordEngagement(with: NoteEntity(id: "engaged-2", title: "Marsh notes", author: "Delia Owens"))
        #expect(try await engagement(of: "x-store://s/note/2", searching: "notes", in: index) == 0.5)
        try await index.recordEngagement(withIdentifier: "plain", interaction: .focus)
        #expect(try await engagement(of: "plain", searching: "notes", in: index) == 0.2)
        // The most engaged result comes first among equal matches.
        try await index.recordEngagement(with: note)
        #expect(try await userSearch("notes", in: index).items.first?.item.uniqueIdentifier == noteItem)
    }

    @Test func engagementWithAnEntityNotYetIndexedWaitsForItsItem() async throws {
        let index = try makeIndex()
        let note = NoteEntity(id: "engaged-later", title: "Tide notes", author: "Delia Owens")
        try await index.recordEngagement(with: note)
        try await index.indexAppEntities([note])
        #expect(try await engagement(of: AppEntityReference(note).uniqueIdentifier, searching: "tide", in: index) == 0.5)
    }
}

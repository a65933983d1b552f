import Foundation
import Testing

@testable import SpotlightKit

@Suite("Items and attribute sets")
struct ItemsTests {
    @Test func jpegTreeReachesImageDataAndItem() {
        let tree = ContentType.jpeg.tree
        #expect(tree.first == "public.jpeg")
        #expect(tree.contains("public.image"))
        #expect(tree.contains("public.data"))
        #expect(tree.contains("public.content"))
        #expect(tree.last == "public.item")
        #expect(ContentType.jpeg.conforms(to: .image))
        #expect(!ContentType.jpeg.conforms(to: .text))
    }

    @Test func plainTextTreeReachesTextAndContent() {
        let tree = ContentType.plainText.tree
        #expect(tree == ["public.plain-text", "public.text", "public.data", "public.content", "public.item"])
    }

    @Test func customTypesCanBeRegistered() {
        let recipe = ContentType("com.example.recipe-\(UUID().uuidString)")
        ContentType.register(recipe, conformingTo: [.json])
        #expect(recipe.tree.contains("public.json"))
        #expect(recipe.tree.contains("public.text"))
        #expect(ContentType("org.example.unknown").tree == ["org.example.unknown", "public.item"])
    }

    @Test func assignmentsAreTrackedIncludingNil() {
        var set = SearchableItemAttributeSet()
        #expect(set.assignedAttributes.isEmpty)
        set.title = "A"
        set.displayName = nil
        set[customKey: "rating"] = .number(3)
        #expect(set.assignedAttributes == [.title, .displayName])
        #expect(set.assignedCustomKeys == ["rating"])
        #expect(SearchableItemAttributeSet(contentType: .jpeg).assignedAttributes == [.contentType])
    }

    @Test func updateAppliesOnlyAssignedAttributes() {
        var stored = SearchableItemAttributeSet(contentType: .text)
        stored.title = "Old"
        stored.textContent = "Body"
        var update = SearchableItemAttributeSet()
        update.title = "New"
        update.contentDescription = nil
        stored.apply(update: update)
        #expect(stored.title == "New")
        #expect(stored.textContent == "Body")
    }

    @Test func itemGetsAnIdentifierWhenNoneIsGiven() {
        let item = SearchableItem(attributeSet: SearchableItemAttributeSet())
        #expect(!item.uniqueIdentifier.isEmpty)
        #expect(item.isUpdate == false)
    }
}

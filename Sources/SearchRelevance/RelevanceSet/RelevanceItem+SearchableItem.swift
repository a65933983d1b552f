import Foundation
public import SpotlightKit

extension RelevanceItem {
    /// The item as SpotlightKit indexes it: the title as title and display name, the text as
    /// text content, the keywords with the author appended as keywords.
    ///
    /// ```swift
    /// try await index.indexSearchableItems(set.items.map(\.searchableItem))
    /// ```
    public var searchableItem: SearchableItem {
        var attributes = SearchableItemAttributeSet(contentType: .text)
        attributes.title = title
        attributes.displayName = title
        attributes.textContent = text
        attributes.keywords = keywords + (author.map { [$0] } ?? [])
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: "relevance.\(kind)", attributeSet: attributes)
    }

    /// The text an embedding of the whole item reads: title, keywords, author and text.
    ///
    /// ```swift
    /// let vectors = try embedder.embed(set.items.map(\.embeddingText), role: .document)
    /// ```
    public var embeddingText: String {
        ([title] + [(keywords + (author.map { [$0] } ?? [])).joined(separator: ", ")] + [text])
            .filter { !$0.isEmpty }.joined(separator: ". ")
    }
}

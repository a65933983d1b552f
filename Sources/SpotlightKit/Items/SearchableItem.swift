import Foundation

/// One piece of app content in a searchable index, with its identity and metadata.
///
/// ```swift
/// var attributes = SearchableItemAttributeSet(contentType: .text)
/// attributes.title = "Crawdads of the Sierra"
/// let item = SearchableItem(uniqueIdentifier: "note-42", domainIdentifier: "notes.fieldwork", attributeSet: attributes)
/// try await index.indexSearchableItems([item])
/// ```
public struct SearchableItem: Sendable, Equatable, Identifiable {
    /// The identifier of the item, unique within its index.
    public var uniqueIdentifier: String
    /// A dotted group name such as `notes.fieldwork`; deleting domain `notes` also deletes it.
    public var domainIdentifier: String?
    /// The searchable metadata.
    public var attributeSet: SearchableItemAttributeSet
    /// After this date the item is never returned and is purged from the index; `nil` keeps it until deleted.
    public var expirationDate: Date?
    /// Whether indexing this item only updates the assigned attributes of an item already in the index.
    ///
    /// When `true` and no item with the same identifier exists, the item is
    /// ignored rather than created. When `false`, an existing item with the same
    /// identifier is replaced as a whole.
    public var isUpdate: Bool

    public var id: String { uniqueIdentifier }

    /// Creates a searchable item.
    ///
    /// ```swift
    /// let item = SearchableItem(uniqueIdentifier: "photo-7", domainIdentifier: "photos", attributeSet: attributes)
    /// ```
    ///
    /// - Parameters:
    ///   - uniqueIdentifier: The identifier; a random UUID string when `nil`.
    ///   - domainIdentifier: The dotted domain the item belongs to.
    ///   - attributeSet: The item's metadata.
    ///   - expirationDate: When the item stops being searchable.
    ///   - isUpdate: Whether to update only the assigned attributes of an existing item.
    public init(
        uniqueIdentifier: String? = nil,
        domainIdentifier: String? = nil,
        attributeSet: SearchableItemAttributeSet,
        expirationDate: Date? = nil,
        isUpdate: Bool = false
    ) {
        self.uniqueIdentifier = uniqueIdentifier ?? UUID().uuidString
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
        self.expirationDate = expirationDate
        self.isUpdate = isUpdate
    }
}

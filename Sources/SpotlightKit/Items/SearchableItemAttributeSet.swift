import Foundation

/// A value stored under a custom attribute key.
///
/// ```swift
/// var set = SearchableItemAttributeSet(contentType: .text)
/// set[customKey: "rating"] = .number(4.5)
/// set[customKey: "dueDate"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
/// ```
public enum CustomAttributeValue: Sendable, Hashable, CustomStringConvertible {
    /// A single string.
    case string(String)
    /// Several strings; a query matches when any of them matches.
    case strings([String])
    /// A number.
    case number(Double)
    /// A point in time.
    case date(Date)

    public var description: String {
        switch self {
        case .string(let value): return value
        case .strings(let values): return values.joined(separator: ", ")
        case .number(let value): return String(value)
        case .date(let value): return ISO8601Formatting.string(from: value)
        }
    }
}

/// The metadata of one searchable item: what is shown, what is searched, what is ranked.
///
/// Every property records that it was assigned, even to `nil`. An item indexed
/// with ``SearchableItem/isUpdate`` set changes only the assigned attributes of
/// the stored item; assigning `nil` removes a value.
///
/// ```swift
/// var attributes = SearchableItemAttributeSet(contentType: .jpeg)
/// attributes.displayName = "Arch at sunset"
/// attributes.keywords = ["Natural Bridges State Park"]
/// attributes.rankingHint = 80
/// ```
public struct SearchableItemAttributeSet: Sendable, Equatable {
    /// The built-in attributes, named as in Core Spotlight.
    public enum Attribute: String, CaseIterable, Sendable, Hashable {
        case title
        case displayName
        case textContent
        case contentDescription
        case keywords
        case contentType
        case contentURL
        case thumbnailData
        case relatedUniqueIdentifier
        case lastUsedDate
        case rankingHint
    }

    /// The built-in attributes assigned since this set was created.
    public private(set) var assignedAttributes: Set<Attribute> = []
    /// The custom keys assigned since this set was created, including removals.
    public private(set) var assignedCustomKeys: Set<String> = []

    /// The title shown for the item.
    public var title: String? { didSet { assignedAttributes.insert(.title) } }
    /// The localized name shown for the item.
    public var displayName: String? { didSet { assignedAttributes.insert(.displayName) } }
    /// The full text of the item.
    public var textContent: String? { didSet { assignedAttributes.insert(.textContent) } }
    /// A short description of the item.
    public var contentDescription: String? { didSet { assignedAttributes.insert(.contentDescription) } }
    /// Keywords, for example tags; a query matches when any keyword matches.
    public var keywords: [String]? { didSet { assignedAttributes.insert(.keywords) } }
    /// The uniform type identifier of the item, for example `public.jpeg`.
    public var contentType: String? { didSet { assignedAttributes.insert(.contentType) } }
    /// The location of the item's content.
    public var contentURL: URL? { didSet { assignedAttributes.insert(.contentURL) } }
    /// A small image shown next to the item.
    public var thumbnailData: Data? { didSet { assignedAttributes.insert(.thumbnailData) } }
    /// The identifier of an item this one relates to.
    public var relatedUniqueIdentifier: String? { didSet { assignedAttributes.insert(.relatedUniqueIdentifier) } }
    /// When the person last used the item; recent use raises its rank.
    public var lastUsedDate: Date? { didSet { assignedAttributes.insert(.lastUsedDate) } }
    /// A hint from 0 to 100 about the item's importance; values outside are clamped when stored.
    public var rankingHint: Int? { didSet { assignedAttributes.insert(.rankingHint) } }

    private var customValues: [String: CustomAttributeValue] = [:]

    /// Creates an empty attribute set.
    ///
    /// ```swift
    /// var update = SearchableItemAttributeSet()
    /// update.lastUsedDate = .now
    /// ```
    public init() {}

    /// Creates an attribute set for content of the given type.
    ///
    /// ```swift
    /// let attributes = SearchableItemAttributeSet(contentType: .plainText)
    /// ```
    ///
    /// - Parameters:
    ///   - contentType: The type of the item's content; its conformance tree is stored with the item.
    public init(contentType: ContentType) {
        self.contentType = contentType.identifier
        assignedAttributes.insert(.contentType)
    }

    /// The content type followed by every type it conforms to.
    ///
    /// ```swift
    /// SearchableItemAttributeSet(contentType: .jpeg).contentTypeTree.contains("public.image") // true
    /// ```
    public var contentTypeTree: [String] {
        guard let contentType else { return [] }
        return ContentType(contentType).tree
    }

    /// Reads or writes a custom attribute.
    ///
    /// Custom keys live beside the built-in attributes and can be queried by
    /// name, for example `rating >= 4`.
    ///
    /// ```swift
    /// attributes[customKey: "rating"] = .number(5)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The attribute name.
    /// - Returns: The stored value, or `nil`.
    public subscript(customKey key: String) -> CustomAttributeValue? {
        get { customValues[key] }
        set {
            customValues[key] = newValue
            assignedCustomKeys.insert(key)
        }
    }

    /// All custom attributes that hold a value.
    public var customAttributes: [String: CustomAttributeValue] { customValues }

    /// Whether any attribute was assigned.
    var isEmpty: Bool { assignedAttributes.isEmpty && assignedCustomKeys.isEmpty }

    /// Forgets which attributes were assigned, keeping the values.
    mutating func clearAssignments() {
        assignedAttributes = []
        assignedCustomKeys = []
    }

    /// Copies the assigned attributes of `update` over this set (the update semantics).
    mutating func apply(update: SearchableItemAttributeSet) {
        for attribute in update.assignedAttributes {
            switch attribute {
            case .title: title = update.title
            case .displayName: displayName = update.displayName
            case .textContent: textContent = update.textContent
            case .contentDescription: contentDescription = update.contentDescription
            case .keywords: keywords = update.keywords
            case .contentType: contentType = update.contentType
            case .contentURL: contentURL = update.contentURL
            case .thumbnailData: thumbnailData = update.thumbnailData
            case .relatedUniqueIdentifier: relatedUniqueIdentifier = update.relatedUniqueIdentifier
            case .lastUsedDate: lastUsedDate = update.lastUsedDate
            case .rankingHint: rankingHint = update.rankingHint
            }
        }
        for key in update.assignedCustomKeys {
            self[customKey: key] = update[customKey: key]
        }
    }

    public static func == (lhs: SearchableItemAttributeSet, rhs: SearchableItemAttributeSet) -> Bool {
        lhs.title == rhs.title && lhs.displayName == rhs.displayName
            && lhs.textContent == rhs.textContent && lhs.contentDescription == rhs.contentDescription
            && lhs.keywords == rhs.keywords && lhs.contentType == rhs.contentType
            && lhs.contentURL == rhs.contentURL && lhs.thumbnailData == rhs.thumbnailData
            && lhs.relatedUniqueIdentifier == rhs.relatedUniqueIdentifier
            && lhs.lastUsedDate == rhs.lastUsedDate && lhs.rankingHint == rhs.rankingHint
            && lhs.customValues == rhs.customValues
    }
}

import Foundation
import IntentKit

/// An app entity that can be put in a searchable index and found again.
///
/// The default ``attributeSet`` comes from the entity's display representation (the title as
/// `title`, the subtitle as `contentDescription`) and its `@Property` values (as custom
/// attributes named after the properties, so `--filter 'author == "Delia*"'` works). Declare
/// `attributeSet` to choose the attributes yourself; start from ``defaultAttributeSet`` to
/// keep them.
///
/// ```swift
/// extension BookEntity: IndexedEntity {}          // title, author as description, properties
///
/// extension PhotoEntity: IndexedEntity {
///     var attributeSet: SearchableItemAttributeSet {
///         var set = SearchableItemAttributeSet(contentType: .image)
///         set.displayName = name
///         set.keywords = tags
///         return set
///     }
/// }
///
/// try await index.indexAppEntities(books)
/// ```
public protocol IndexedEntity: AppEntity {
    /// The searchable attributes of this entity.
    var attributeSet: SearchableItemAttributeSet { get }

    /// The name that identifies the entity type in an index; the Swift type name by default,
    /// which is also the type name of the entity's workflow values.
    static var entityTypeIdentifier: String { get }
}

extension IndexedEntity {
    public var attributeSet: SearchableItemAttributeSet { defaultAttributeSet }

    public static var entityTypeIdentifier: String { String(describing: Self.self) }

    /// The attributes made from the display representation and the `@Property` values.
    ///
    /// Property values become custom attributes named after the property: text, numbers,
    /// dates, enum cases (their raw value), entities (their title) and lists of text. A
    /// property named like a built-in attribute (`title`, `keywords`, …) is left out, so the
    /// built-in attribute keeps its meaning in queries.
    ///
    /// ```swift
    /// var attributeSet: SearchableItemAttributeSet {
    ///     var set = defaultAttributeSet
    ///     set.keywords = genres
    ///     return set
    /// }
    /// ```
    public var defaultAttributeSet: SearchableItemAttributeSet {
        var set = SearchableItemAttributeSet()
        let representation = displayRepresentation
        set.title = representation.title.description
        if let subtitle = representation.subtitle?.description, !subtitle.isEmpty {
            set.contentDescription = subtitle
        }
        guard case .entity(let value) = intentValue else { return set }
        for (name, property) in value.properties.sorted(by: { $0.key < $1.key }) {
            guard AttributeCatalog.lookup(name) == nil, !AppEntityReference.reservedKeys.contains(name),
                let attribute = Self.customAttribute(property)
            else { continue }
            set[customKey: name] = attribute
        }
        return set
    }

    private static func customAttribute(_ value: IntentValue) -> CustomAttributeValue? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : .string(text)
        case .int(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .bool(let flag): return .number(flag ? 1 : 0)
        case .date(let date): return .date(date)
        case .url(let url): return .string(url.absoluteString)
        case .enumCase(let value): return .string(value.rawValue)
        case .entity(let entity): return .string(entity.title)
        case .list(let elements):
            let texts = elements.compactMap { element -> String? in
                switch element {
                case .string(let text): return text
                case .enumCase(let value): return value.rawValue
                case .entity(let entity): return entity.title
                default: return nil
                }
            }
            return texts.isEmpty ? nil : .strings(texts)
        case .null, .file, .dictionary: return nil
        }
    }
}

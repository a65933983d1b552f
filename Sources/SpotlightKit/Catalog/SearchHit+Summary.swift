import IntentKit

extension SearchHit {
    /// The hit's title as a result list shows it: the entity's title, else the item's title or
    /// display name, else its identifier.
    ///
    /// ```swift
    /// print(hit.shownTitle, hit.shownDetail, hit.shownSource)   // Where the Crawdads Sing  Delia Owens  library · Library.BookEntity
    /// ```
    package var shownTitle: String {
        if case .entity(let entity)? = entity { return entity.title }
        if let entity { return entity.displayText }
        return item.attributeSet.title ?? item.attributeSet.displayName ?? item.uniqueIdentifier
    }

    /// A second line: the entity's subtitle, else the item's description or keywords.
    package var shownDetail: String {
        if case .entity(let entity)? = entity, let subtitle = entity.subtitle { return subtitle }
        let attributes = item.attributeSet
        return attributes.contentDescription ?? attributes.keywords?.joined(separator: ", ") ?? ""
    }

    /// Where it was found: the index, and the entity type when it stands for an installed entity.
    package var shownSource: String {
        entityTypeName.map { "\(indexName) · \($0)" } ?? indexName
    }
}

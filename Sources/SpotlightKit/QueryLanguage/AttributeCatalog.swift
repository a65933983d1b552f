import Foundation

/// What kind of values an attribute holds.
enum AttributeKind: Sendable, Equatable {
    case text
    case multiText
    case number
    case date

    var isText: Bool { self == .text || self == .multiText }

    var noun: String {
        switch self {
        case .text, .multiText: return "text"
        case .number: return "numbers"
        case .date: return "dates"
        }
    }
}

/// A built-in attribute: its canonical name, its column in `spotlightItem`, and its kind.
struct BuiltinAttribute: Sendable, Equatable {
    var name: String
    var column: String
    var kind: AttributeKind
}

/// Maps the attribute names of the query language (Core Spotlight property
/// names and their `kMDItem…` spellings) to storage.
enum AttributeCatalog {
    static let builtins: [BuiltinAttribute] = [
        BuiltinAttribute(name: "title", column: "title", kind: .text),
        BuiltinAttribute(name: "displayName", column: "displayName", kind: .text),
        BuiltinAttribute(name: "textContent", column: "textContent", kind: .text),
        BuiltinAttribute(name: "contentDescription", column: "contentDescription", kind: .text),
        BuiltinAttribute(name: "keywords", column: "keywords", kind: .multiText),
        // A content type matches its whole conformance tree, so `contentType == "public.image"` finds JPEGs.
        BuiltinAttribute(name: "contentType", column: "contentTypeTree", kind: .multiText),
        BuiltinAttribute(name: "contentTypeTree", column: "contentTypeTree", kind: .multiText),
        BuiltinAttribute(name: "contentURL", column: "contentURL", kind: .text),
        BuiltinAttribute(name: "relatedUniqueIdentifier", column: "relatedUniqueIdentifier", kind: .text),
        BuiltinAttribute(name: "uniqueIdentifier", column: "uniqueIdentifier", kind: .text),
        BuiltinAttribute(name: "domainIdentifier", column: "domainIdentifier", kind: .text),
        BuiltinAttribute(name: "lastUsedDate", column: "lastUsedDate", kind: .date),
        BuiltinAttribute(name: "expirationDate", column: "expirationDate", kind: .date),
        BuiltinAttribute(name: "rankingHint", column: "rankingHint", kind: .number)
    ]

    /// The `kMDItem…` spellings documented for these attributes.
    static let metadataAliases: [String: String] = [
        "kMDItemTitle": "title",
        "kMDItemDisplayName": "displayName",
        "kMDItemTextContent": "textContent",
        "kMDItemDescription": "contentDescription",
        "kMDItemKeywords": "keywords",
        "kMDItemContentType": "contentType",
        "kMDItemContentTypeTree": "contentTypeTree",
        "kMDItemURL": "contentURL",
        "kMDItemContentURL": "contentURL",
        "kMDItemLastUsedDate": "lastUsedDate",
        "kMDItemRankingHint": "rankingHint",
        "kMDItemRelatedUniqueIdentifier": "relatedUniqueIdentifier",
        "kMDItemIdentifier": "uniqueIdentifier",
        "kMDItemDomainIdentifier": "domainIdentifier"
    ]

    /// The text attributes searched by the `*` attribute and by user queries.
    static let textColumns = ["title", "displayName", "keywords", "textContent", "contentDescription"]

    private static let byLowercasedName: [String: BuiltinAttribute] = {
        var table: [String: BuiltinAttribute] = [:]
        for attribute in builtins { table[attribute.name.lowercased()] = attribute }
        for (alias, name) in metadataAliases {
            table[alias.lowercased()] = builtins.first { $0.name == name }
        }
        return table
    }()

    /// The built-in attribute with this name (case-insensitive), or `nil` for a custom key.
    static func lookup(_ name: String) -> BuiltinAttribute? {
        byLowercasedName[name.lowercased()]
    }

    /// The canonical property name for a fetch-attribute name, or the name itself for custom keys.
    static func canonicalName(_ name: String) -> String {
        if let builtin = lookup(name) {
            return builtin.name == "contentTypeTree" ? "contentType" : builtin.name
        }
        return name
    }
}

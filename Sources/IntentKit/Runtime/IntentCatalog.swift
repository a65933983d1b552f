import Foundation

/// The installed apps, and lookups of intents, entities and enums by name.
///
/// Names are `App.Type` (`Library.AddBook`), or `Type` alone where only one app has it.
///
/// ```swift
/// let catalog = IntentCatalog(apps: [LibraryApp.app])
/// let addBook = try catalog.intent(named: "AddBook")
/// ```
public struct IntentCatalog: Sendable {
    /// The apps.
    public let apps: [IntentApp]

    public init(apps: [IntentApp]) {
        self.apps = apps
    }

    /// An intent found by name, with its app.
    public struct FoundIntent: Sendable {
        public var app: IntentApp
        public var type: any AppIntent.Type
        public var name: String
    }

    /// Every intent, by full name.
    public var allIntents: [FoundIntent] {
        apps.flatMap { app in app.intents.map { FoundIntent(app: app, type: $0, name: app.qualifiedName(of: $0)) } }
    }

    /// Finds an intent by `App.Intent` or unambiguous `Intent`.
    ///
    /// - Throws: ``IntentError/unknownIntent(name:suggestion:)`` or
    ///   ``IntentError/ambiguousIntent(name:candidates:)``.
    public func intent(named name: String) throws -> FoundIntent {
        switch Self.lookUp(name, in: allIntents, fullName: \.name, typeName: { String(describing: $0.type) }) {
        case .found(let intent): return intent
        case .ambiguous(let candidates): throw IntentError.ambiguousIntent(name: name, candidates: candidates)
        case .missing(let suggestion): throw IntentError.unknownIntent(name: name, suggestion: suggestion)
        }
    }

    /// An entity type found by name, with its app.
    public struct FoundEntity: Sendable {
        public var app: IntentApp
        public var type: any AppEntity.Type
        public var name: String
    }

    /// Every entity type, by full name.
    public var allEntities: [FoundEntity] {
        apps.flatMap { app in app.entities.map { FoundEntity(app: app, type: $0, name: app.qualifiedName(ofType: $0)) } }
    }

    /// Finds an entity type by `App.Entity` or unambiguous `Entity`.
    ///
    /// - Throws: ``IntentError/unknownEntity(name:suggestion:)``.
    public func entity(named name: String) throws -> FoundEntity {
        switch Self.lookUp(name, in: allEntities, fullName: \.name, typeName: { String(describing: $0.type) }) {
        case .found(let entity): return entity
        case .ambiguous(let candidates): throw IntentError.ambiguousIntent(name: name, candidates: candidates)
        case .missing(let suggestion): throw IntentError.unknownEntity(name: name, suggestion: suggestion)
        }
    }

    private enum LookUp<Item> {
        case found(Item)
        case ambiguous([String])
        case missing(suggestion: String?)
    }

    /// Finds an item by full name (`App.Type`), else by type name when only one app has it.
    private static func lookUp<Item>(_ name: String, in items: [Item], fullName: (Item) -> String,
                                     typeName: (Item) -> String) -> LookUp<Item> {
        if let exact = items.first(where: { fullName($0) == name }) { return .found(exact) }
        let bare = items.filter { typeName($0) == name }
        if bare.count == 1 { return .found(bare[0]) }
        if bare.count > 1 { return .ambiguous(bare.map(fullName)) }
        return .missing(suggestion: NameSuggestion.nearest(to: name, among: items.map(fullName) + items.map(typeName)))
    }

    /// The app that declares a type (an intent, entity or enum).
    public func app(declaring type: Any.Type) -> IntentApp? {
        let key = ObjectIdentifier(type)
        return apps.first { app in
            app.intents.contains { ObjectIdentifier($0) == key } || app.entities.contains { ObjectIdentifier($0) == key }
                || app.enums.contains { ObjectIdentifier($0) == key }
        }
    }
}

/// Finds the nearest known name to a mistyped one, for "did you mean" hints.
///
/// ```swift
/// NameSuggestion.nearest(to: "athorName", among: ["title", "authorName"])   // "authorName"
/// ```
public enum NameSuggestion {
    /// The candidate closest to `name` by edit distance (ignoring case), if close enough:
    /// at most a third of the longer name's length, and at least one edit.
    ///
    /// - Parameters:
    ///   - name: The mistyped name.
    ///   - candidates: The known names.
    /// - Returns: The suggestion, or `nil`.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        let folded = Array(name.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(folded, Array(candidate.lowercased()))
            let limit = max(1, max(folded.count, candidate.count) / 3)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance between two strings.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}

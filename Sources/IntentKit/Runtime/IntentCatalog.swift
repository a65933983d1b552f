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
        /// The Swift type or the hosted app's description of the intent.
        public var definition: IntentDefinition
        public var name: String
        /// The Swift type, or `nil` for an intent of a hosted app.
        public var type: (any AppIntent.Type)? { definition.type }
    }

    /// Every intent, by full name.
    public var allIntents: [FoundIntent] {
        apps.flatMap { app in
            app.intentDefinitions.map { FoundIntent(app: app, definition: $0, name: app.name + "." + $0.typeName) }
        }
    }

    /// Finds an intent by `App.Intent` or unambiguous `Intent`.
    ///
    /// - Throws: ``IntentError/unknownIntent(name:suggestion:)`` or
    ///   ``IntentError/ambiguousIntent(name:candidates:)``.
    public func intent(named name: String) throws -> FoundIntent {
        switch Self.lookUp(name, in: allIntents, fullName: \.name, typeName: { $0.definition.typeName }) {
        case .found(let intent): return intent
        case .ambiguous(let candidates): throw IntentError.ambiguousIntent(name: name, candidates: candidates)
        case .missing(let suggestion): throw IntentError.unknownIntent(name: name, suggestion: suggestion)
        }
    }

    /// An entity type found by name, with its app.
    public struct FoundEntity: Sendable {
        public var app: IntentApp
        /// The Swift type or the hosted app's description of the entity type.
        public var reference: EntityTypeReference
        public var name: String
        /// The Swift type, or `nil` for an entity type of a hosted app.
        public var type: (any AppEntity.Type)? { reference.type }
    }

    /// Every entity type, by full name.
    public var allEntities: [FoundEntity] {
        apps.flatMap { app in
            app.entityTypes.map { FoundEntity(app: app, reference: $0, name: app.name + "." + $0.name) }
        }
    }

    /// Finds an entity type by `App.Entity` or unambiguous `Entity`.
    ///
    /// - Throws: ``IntentError/unknownEntity(name:suggestion:)``.
    public func entity(named name: String) throws -> FoundEntity {
        switch Self.lookUp(name, in: allEntities, fullName: \.name, typeName: { $0.reference.name }) {
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
    private static func lookUp<Item>(
        _ name: String, in items: [Item], fullName: (Item) -> String,
        typeName: (Item) -> String
    ) -> LookUp<Item> {
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

/// Finds the name a misspelled one was most likely meant to be, for "did you mean" hints.
///
/// A candidate that differs only in letter case wins; otherwise the candidate with the
/// smallest Damerau–Levenshtein distance (insertions, deletions, substitutions and swaps of two
/// neighbouring characters, ignoring case), if that distance is at most a third of the name's
/// length (and at least 1). Failing that, a candidate that starts with the name (of three
/// characters or more) is suggested, so that `desc` finds `descending`. Ties go to the earlier
/// candidate.
///
/// ```swift
/// NameSuggestion.nearest(to: "athorName", among: ["title", "authorName"])   // "authorName"
/// NameSuggestion.nearest(to: "timezone", among: ["timeZone", "schedule"])    // "timeZone"
/// NameSuggestion.nearest(to: "zzz", among: ["title"])                        // nil
/// ```
package enum NameSuggestion {
    /// The best candidate for a misspelled name.
    ///
    /// - Parameters:
    ///   - name: The unknown name as written.
    ///   - candidates: The names that would have been accepted.
    /// - Returns: The best candidate, or `nil` when none is close enough or `name` is itself a candidate.
    package static func nearest(to name: String, among candidates: [String]) -> String? {
        guard !name.isEmpty, !candidates.contains(name) else { return nil }
        let lowered = Array(name.lowercased())
        let loweredCandidates = candidates.map { Array($0.lowercased()) }
        if let index = loweredCandidates.firstIndex(of: lowered) {
            return candidates[index]
        }
        let threshold = max(1, lowered.count / 3)
        var best: (candidate: String, distance: Int)?
        for (candidate, loweredCandidate) in zip(candidates, loweredCandidates) {
            guard abs(loweredCandidate.count - lowered.count) <= threshold else { continue }
            let distance = editDistance(lowered, loweredCandidate)
            if distance <= threshold && distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        if let best {
            return best.candidate
        }
        guard lowered.count >= 3 else { return nil }
        return zip(candidates, loweredCandidates)
            .filter { $0.1.starts(with: lowered) }
            .min { $0.0.count < $1.0.count }?
            .0
    }

    /// The optimal-string-alignment form of the Damerau–Levenshtein distance (insertions,
    /// deletions, substitutions and swaps of neighbouring characters).
    ///
    /// ```swift
    /// NameSuggestion.editDistance(Array("kitten"), Array("sitting"))                       // 3
    /// NameSuggestion.editDistance(Array("crawd"), Array("crawdads"), prefixOfSecond: true)  // 0
    /// ```
    /// - Parameters:
    ///   - source: The first text, as characters.
    ///   - target: The second text, as characters.
    ///   - prefixOfSecond: Measure against the closest prefix of `target` (for words being typed).
    ///   - limit: Stop early and return `limit + 1` once the distance must exceed it.
    /// - Returns: The number of edits between them.
    package static func editDistance(
        _ source: [Character], _ target: [Character], prefixOfSecond: Bool = false,
        limit: Int = .max
    ) -> Int {
        if source.isEmpty { return prefixOfSecond ? 0 : target.count }
        if target.isEmpty { return source.count }
        let width = target.count + 1
        var beforePrevious = [Int](repeating: 0, count: width)
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: width)
        for row in 1...source.count {
            current[0] = row
            var rowMinimum = row
            for column in 1...target.count {
                let cost = source[row - 1] == target[column - 1] ? 0 : 1
                var value = min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost)
                if row > 1, column > 1,
                    source[row - 1] == target[column - 2], source[row - 2] == target[column - 1]
                {
                    value = min(value, beforePrevious[column - 2] + 1)
                }
                current[column] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return prefixOfSecond ? (previous.min() ?? target.count) : previous[target.count]
    }
}

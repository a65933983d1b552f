import Foundation
import IntentKit
import SpotlightKit

/// Writes a diary entry.
public struct AddEntry: AppIntent {
    public static let title: LocalizedStringResource = "Add Entry"
    public static let description = IntentDescription("Writes an entry in your journal.")

    @Parameter(title: "Title", requestValueDialog: "What is the entry called?")
    public var title: String

    @Parameter(title: "Text", requestValueDialog: "What happened?")
    public var text: String

    @Parameter(title: "Keywords")
    public var keywords: [String]?

    @Parameter(title: "Date")
    public var date: Date?

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Add \(\.$title) to the journal") {
            \.$text
            \.$keywords
            \.$date
        }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<EntryEntity> & ProvidesDialog {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let day = calendar.startOfDay(for: date ?? Date())
        let entry = EntryEntity(title: title, text: text, keywords: keywords ?? [], date: day)
        try JournalDatabase.shared().save(entry)
        return .result(value: entry, dialog: "Added \(entry.title) to your journal.")
    }
}

/// Searches the journal as a person types: ranked results, the best two as top hits, and
/// suggestions when nothing matches.
public struct SearchEntries: AppIntent {
    public static let title: LocalizedStringResource = "Search Entries"
    public static let description = IntentDescription("Finds journal entries by words of their title, text or keywords, best first.")

    @Parameter(title: "Query", requestValueDialog: "What are you looking for?")
    public var query: String

    @Parameter(title: "Limit", default: 5)
    public var limit: Int

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Search the journal for \(\.$query)") { \.$limit }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<[EntryEntity]> & ProvidesDialog {
        let found = try await JournalSearch.search(query, limit: max(0, limit), suggestions: 3)
        if found.entries.isEmpty {
            if let suggestion = found.suggestions.first {
                return .result(value: [], dialog: "Nothing matches \(query). Did you mean \(suggestion)?")
            }
            return .result(value: [], dialog: "Nothing matches \(query).")
        }
        let topHits = found.entries.prefix(found.topHitCount).map(\.title).joined(separator: ", ")
        return .result(value: found.entries, dialog: "Top hits: \(topHits)")
    }
}

/// Completes or corrects what is typed, from the words of the journal, as a search field's
/// suggestion menu does.
public struct SuggestSearches: AppIntent {
    public static let title: LocalizedStringResource = "Suggest Searches"
    public static let description = IntentDescription("Suggests searches that complete or correct the typed text.")

    @Parameter(title: "Text", requestValueDialog: "What have you typed so far?")
    public var text: String

    @Parameter(title: "Count", default: 4)
    public var count: Int

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Suggest searches for \(\.$text)") { \.$count }
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<[String]> {
        let found = try await JournalSearch.search(text, limit: 0, suggestions: max(0, count))
        return .result(value: found.suggestions)
    }
}

/// Opens an entry, which makes it rank higher in later searches: its last-used date, and an
/// engagement recorded in the journal's index (shown by `shortcuts search --explain`).
public struct OpenEntry: AppIntent {
    public static let title: LocalizedStringResource = "Open Entry"
    public static let description = IntentDescription("Shows an entry; entries opened recently rank higher in searches.")

    @Parameter(title: "Entry")
    public var entry: EntryEntity

    public init() {}

    public static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$entry)")
    }

    public func perform() async throws -> some IntentResult & ReturnsValue<EntryEntity> & ProvidesDialog {
        var opened = entry
        opened.lastOpened = Date()
        try JournalDatabase.shared().save(opened)
        try await JournalIndexer.shared().searchableIndex.recordEngagement(with: opened)
        return .result(value: opened, dialog: "\(opened.title): \(opened.text)")
    }
}

/// The journal's ranked search with suggestions.
enum JournalSearch {
    struct Found {
        var entries: [EntryEntity]
        var topHitCount: Int
        var suggestions: [String]
    }

    static func search(_ text: String, limit: Int, suggestions: Int) async throws -> Found {
        let indexer = try JournalIndexer.shared()
        try await indexer.prepareForSearch()
        try await indexer.searchableIndex.prepareSemanticSearch()
        var context = UserQueryContext(
            fetchAttributes: ["title"] + AppEntityResolver.referenceAttributes,
            enableRankedResults: true, maxResultCount: limit, maxRankedResultCount: 2,
            maxSuggestionCount: suggestions)
        context.filterQueries = [AppEntityResolver.filterQuery(for: EntryEntity.self)]
        var results: [UserQuery.Item] = []
        var suggested: [String] = []
        for try await response in UserQuery(userQueryString: text, context: context, index: indexer.searchableIndex).responses {
            switch response {
            case .item(let result): results.append(result)
            case .suggestion(let suggestion): suggested.append(suggestion.text)
            }
        }
        results.sort { $0.compare(byRank: $1) == .orderedAscending }
        let entries = try await AppEntityResolver.entities(for: results.map(\.item), ofType: EntryEntity.self)
        let kept = zip(results, entries).compactMap { result, entry in entry.map { (result, $0) } }
        return Found(entries: kept.map(\.1), topHitCount: kept.filter { $0.0.isTopHit }.count, suggestions: suggested)
    }
}

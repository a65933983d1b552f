import Foundation
import IntentKit
import SpotlightKit

/// Journal: the diary app of the semantic-search talk. Entries live in
/// `$SHORTCUTS_HOME/journal.sqlite` (a sample diary to start with); ``JournalIndexer`` indexes
/// them in batches with client state, and ``SearchEntries`` and ``SuggestSearches`` answer
/// ranked queries with top hits and suggestions.
public enum JournalApp {
    /// The name of the Journal search index.
    public static let searchIndexName = "journal"

    /// The Journal search index, kept by ``JournalIndexer``.
    public static let searchIndex = AppSearchIndex(name: searchIndexName, entityTypes: [EntryEntity.self]) {
        try JournalIndexer.shared()
    }

    /// The app, as the engine and the command line install it.
    public static let app = IntentApp(
        name: "Journal",
        intents: [AddEntry.self, SearchEntries.self, SuggestSearches.self, OpenEntry.self],
        entities: [EntryEntity.self],
        features: [searchIndex])
}

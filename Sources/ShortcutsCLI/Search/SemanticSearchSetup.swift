import Foundation
import SpotlightKit
import TextEmbedding

/// Where the command line gets its text-embedding model, and what it says when there is none.
enum SemanticSearchSetup {
    /// The embedder semantic search uses: the model `shortcuts models install` put in
    /// `$SHORTCUTS_HOME/models` (the default model first), or `nil` when none is installed.
    ///
    /// - Throws: `ModelLoadingError` or `ModelStoreError` when the installed files are missing or damaged.
    static func embedder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any TextEmbedder)? {
        try ModelStore.standard(environment: environment).loadEmbedder()
    }

    /// How to get a model, for messages.
    static var installHelp: String {
        "install a text-embedding model with `\(Installation.shared.commandName) models install`"
    }

    /// Lets indexes with semantic search on load the model when first searched; without one, the
    /// search matches words and standard error says once how to install a model.
    static func install() {
        SearchableIndex.loadEmbedders {
            do {
                if let embedder = try embedder() { return embedder }
                note("semantic search is on but no text-embedding model is installed, so search matches words only; \(installHelp)")
            } catch {
                note("the text-embedding model could not be loaded, so search matches words only: \(error)")
            }
            return nil
        }
    }

    private static func note(_ message: String) {
        FileHandle.standardError.write(Data("note: \(message)\n".utf8))
    }
}

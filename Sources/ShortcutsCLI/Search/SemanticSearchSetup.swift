import Foundation
import IntentKit
import SpotlightKit
import TextEmbedding

/// Where the command line gets its text-embedding model, and what it says when there is none.
enum SemanticSearchSetup {
    /// The embedder semantic search uses: a model `shortcuts models install` put in
    /// `$SHORTCUTS_HOME/models`, the one named or else the default model first, or `nil` when none is
    /// installed.
    ///
    /// - Parameters:
    ///   - model: The model's name or identifier (an index records the identifier of its vectors' model).
    /// - Throws: `ModelLoadingError` or `ModelStoreError` when the installed files are missing or
    ///   damaged, or the model named is not installed.
    static func embedder(
        named model: String? = nil, environment: [String: String] = ProcessEnvironment.current
    ) throws -> (any TextEmbedder)? {
        try ModelStore.standard(environment: environment).loadEmbedder(named: model)
    }

    /// How many text-embedding models are installed; 0 when the models folder cannot be read.
    static func installedModelCount(environment: [String: String] = ProcessEnvironment.current) -> Int {
        (try? ModelStore.standard(environment: environment).installed().count) ?? 0
    }

    /// How to get a model, for messages.
    static var installHelp: String {
        "install a text-embedding model with `\(Installation.shared.commandName) models install`"
    }

    /// Lets indexes with semantic search on load the model when first searched; without one, the
    /// search matches words and standard error says once how to install a model.
    static func install() {
        SearchableIndex.loadEmbedders { model in
            do {
                if let embedder = try embedder(named: model) { return embedder }
                note("semantic search is on but no text-embedding model is installed, so search matches words only; \(installHelp)")
            } catch ModelStoreError.notInstalled(let missing, _) {
                let name = missing.split(separator: "@").first.map(String.init) ?? missing
                note(
                    "semantic search is on but no text-embedding model is installed for it (\(missing)), so search matches "
                        + "words only; install it with `\(Installation.shared.commandName) models install \(name)`")
            } catch {
                note("the text-embedding model could not be loaded, so search matches words only: \(error)")
            }
            return nil
        }
    }

    private static func note(_ message: String) {
        CommandOutput.current.writeError(Data("note: \(message)\n".utf8))
    }
}

import Foundation
import SpotlightKit
import TextEmbedding

/// Where the command line gets its text-embedding model, and what it says when there is none.
enum SemanticSearchSetup {
    /// The default model's identifier, stored with every vector it makes.
    static let modelIdentifier = "all-MiniLM-L6-v2@1110a243"
    /// The cosine below which a MiniLM hit is unrelated to the query.
    static let similarityFloor: Float = 0.2

    /// The embedder semantic search uses, or `nil` when no model is available.
    ///
    /// Reads the model folder named by `SHORTCUTS_MODEL_DIR` (config.json, tokenizer.json and
    /// model.safetensors of all-MiniLM-L6-v2).
    ///
    /// - Throws: `ModelLoadingError` when the folder's files are missing or damaged.
    static func embedder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any TextEmbedder)? {
        guard let folder = environment["SHORTCUTS_MODEL_DIR"], !folder.isEmpty else { return nil }
        return try TransformerEmbedder(
            directory: URL(fileURLWithPath: folder, isDirectory: true), identifier: modelIdentifier,
            similarityFloor: similarityFloor)
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

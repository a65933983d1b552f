/// A model that turns text into vectors whose cosine similarity measures closeness of meaning.
///
/// Vectors are L2-normalised, so the dot product of two of them is their cosine similarity.
/// An embedder is loaded once and is safe to use from several tasks.
///
/// ```swift
/// let embedder = try ModelStore.standard().loadEmbedder()   // nil when no model is installed
/// let vectors = try embedder?.embed(["Morning run by the river"], role: .document)
/// ```
public protocol TextEmbedder: Sendable {
    /// The model and its weights, such as `all-MiniLM-L6-v2@1110a243`; stored with every vector
    /// so that vectors of another model are recognised and computed again.
    var identifier: String { get }

    /// The number of components of each vector.
    var dimension: Int { get }

    /// The cosine similarity below which a document is not considered related to a query.
    var similarityFloor: Float { get }

    /// Embeds texts in one packed batch.
    ///
    /// - Parameters:
    ///   - texts: The texts; each is truncated to the model's token limit.
    ///   - role: Whether the texts are queries or documents (some models prefix them differently).
    /// - Returns: One unit-length vector of ``dimension`` components per text, in order.
    func embed(_ texts: [String], role: EmbeddingRole) throws -> [[Float]]
}

/// What a text being embedded is: a user's query, or a document searched by queries.
public enum EmbeddingRole: Sendable, Hashable {
    case query
    case document
}

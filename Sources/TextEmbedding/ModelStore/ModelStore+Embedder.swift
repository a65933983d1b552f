extension ModelStore {
    /// The embedder of an installed model: its folder run by ``TransformerEmbedder``, with the
    /// identifier and similarity floor its `model.json` records.
    static func embedder(for model: InstalledModel) throws -> any TextEmbedder {
        try TransformerEmbedder(directory: model.directory, identifier: model.identifier, similarityFloor: model.similarityFloor)
    }
}

extension ModelStore {
    /// The embedder of an installed model.
    static func embedder(for model: InstalledModel) throws -> any TextEmbedder {
        throw ModelStoreError.damagedInstallation(path: model.directory.path, reason: "this build has no transformer engine to load it")
    }
}

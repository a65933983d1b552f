import IntentKit

extension WorkflowExecution {
    /// Sets up the app of an entity input's type (`Library.BookEntity`, `[Library.BookEntity]?`)
    /// before its value is resolved through the entity's query, as a `find` step does.
    func prepareApp(ofInputType typeName: String) async throws {
        let base = typeName.trimmingCharacters(in: ["?", "[", "]"])
        guard let entity = try? runner.catalog.entity(named: base) else { return }
        try await IntentPerformer(catalog: runner.catalog).prepare(entity.app)
    }
}

import IntentKit

extension WorkflowExecution {
    /// `search:` runs a typed query through the runner's ``WorkflowSearchProvider``; found
    /// entities stay entities, other items are dictionaries of their attributes.
    ///
    /// ```yaml
    /// - id: hits
    ///   search: owens
    ///   entity: Library.BookEntity
    ///   limit: 5
    /// ```
    func execute(_ search: SearchStep, at location: SourceLocation, in scope: RunScope, record: inout StepTrace) async throws -> IntentValue {
        guard let provider = runner.search else {
            throw WorkflowRunError("this program cannot search: no search is installed", at: location, sources: sources)
        }
        let query = try values.evaluate(search.query, in: scope)
        let text = query.isNull ? "" : query.displayText
        let limit = try search.limit.map { try self.limit($0, in: scope) }
        var entityType: (any AppEntity.Type)?
        if let name = search.entity {
            guard let found = try? runner.catalog.entity(named: name.description), let type = found.type, provider.isSearchable(type) else {
                throw WorkflowRunError("'\(name.description)' is not an indexed entity", at: name.location, sources: sources)
            }
            entityType = type
        } else if let index = search.index, let declared = provider.entityTypes(ofIndexNamed: index.value), declared.count == 1 {
            entityType = declared[0]
        }
        var inputs: [String: IntentValue] = ["query": .string(text)]
        if let index = search.index { inputs["index"] = .string(index.value) }
        if let limit { inputs["limit"] = .int(limit) }
        if !search.semantic { inputs["semantic"] = .bool(false) }
        record.inputs = inputs
        var request = WorkflowSearchRequest(text: text, entityType: entityType, indexName: search.index?.value, limit: limit)
        request.semantic = search.semantic
        do {
            return .list(try await provider.search(request))
        } catch is CancellationError {
            throw WorkflowCancelled()
        } catch {
            throw WorkflowRunError("search: \(error)", at: search.index?.location ?? location, sources: sources)
        }
    }
}

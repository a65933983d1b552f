import IntentKit

extension WorkflowExecution {
    /// `find:` queries an entity type: conditions that are plain property comparisons go to
    /// the entity's query (SQL for a store-backed entity), others are checked one by one.
    ///
    /// ```yaml
    /// - find: Library.BookEntity
    ///   where: { author: { equalTo: "${book.author}" } }
    ///   sortBy: [ { datePublished: descending } ]
    ///   limit: 3
    /// ```
    func execute(_ find: FindStep, at location: SourceLocation, in scope: RunScope, record: inout StepTrace) async throws -> IntentValue {
        let conditions = ConditionEvaluator(values: values)
        let entity: IntentCatalog.FoundEntity
        do {
            entity = try runner.catalog.entity(named: find.entity.description)
        } catch {
            throw WorkflowRunError("\(error)", at: find.entity.location, sources: sources)
        }
        try await IntentPerformer(catalog: runner.catalog).prepare(entity.app)
        let sorts = find.sortBy.map(\.propertySort)
        let limit = try find.limit.map { try self.limit($0, in: scope) }
        do {
            if let condition = find.condition {
                if let (mode, flat) = try conditions.flatPropertyConditions(condition, in: scope) {
                    record.inputs = [
                        "conditions": .list(
                            flat.map { .string("\($0.property) \($0.comparator.rawValue) \($0.operands.map(\.displayText).joined(separator: ", "))") }
                        )
                    ]
                    return .list(try await EntityQueries.find(entity.reference, conditions: flat, mode: mode, sortedBy: sorts, limit: limit))
                }
                let all = try await EntityQueries.find(entity.reference, conditions: [])
                var kept: [IntentValue] = []
                for element in all where try conditions.holds(condition, element: element, in: scope) { kept.append(element) }
                return .list(try EntityQueries.filter(kept, conditions: [], sortedBy: sorts, limit: limit))
            }
            return .list(try await EntityQueries.find(entity.reference, conditions: [], sortedBy: sorts, limit: limit))
        } catch let error as EntityQueryError {
            throw WorkflowRunError(error.description, at: location, sources: sources)
        } catch let error as ValueConversionError {
            throw WorkflowRunError("find \(entity.name): \(error)", at: location, sources: sources)
        } catch let error as CancellationError {
            throw error
        } catch  where error is any CustomLocalizedStringResourceConvertible || entity.type == nil {
            let message = IntentPerformer.message(for: error, in: Localization.current)
            throw WorkflowRunError("find \(entity.name): \(message)", at: location, sources: sources)
        }
    }
}

extension SortCriterion {
    /// The criterion as IntentKit's query sort.
    var propertySort: PropertySort {
        PropertySort(property: property.value, order: order)
    }
}

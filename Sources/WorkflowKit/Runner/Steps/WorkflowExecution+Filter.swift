import IntentKit

extension WorkflowExecution {
    /// `filter:` keeps the elements of a list that meet `where:`, sorted and limited.
    ///
    /// ```yaml
    /// - filter: ${books}
    ///   where: { pageCount: { greaterThan: 300 } }
    ///   limit: 5
    /// ```
    func execute(_ filter: FilterStep, at location: SourceLocation, in scope: RunScope, record: inout StepTrace) throws -> IntentValue {
        let values = self.values
        let conditions = ConditionEvaluator(values: values)
        let list = try values.evaluate(filter.list, in: scope)
        record.inputs = ["list": list]
        var kept: [IntentValue] = []
        for element in list.elements {
            if let condition = filter.condition {
                if try conditions.holds(condition, element: element, in: scope) { kept.append(element) }
            } else {
                kept.append(element)
            }
        }
        let sorts = filter.sortBy.map(\.propertySort)
        let limit = try filter.limit.map { try self.limit($0, in: scope) }
        do {
            return .list(try EntityQueries.filter(kept, conditions: [], sortedBy: sorts, limit: limit))
        } catch let error as EntityQueryError {
            throw WorkflowRunError(error.description, at: location, sources: sources)
        }
    }
}

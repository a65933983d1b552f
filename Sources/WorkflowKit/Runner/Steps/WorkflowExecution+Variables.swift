import IntentKit

extension WorkflowExecution {
    /// `show:` shows text and outputs it.
    ///
    /// ```yaml
    /// - show: "Added ${book.title}"
    /// ```
    func execute(_ show: ShowStep, in scope: RunScope, record: inout StepTrace) throws -> IntentValue {
        let text = try values.evaluate(show.value, in: scope).displayText
        runner.show(text)
        record.dialog = text
        return .string(text)
    }

    /// `set:` gives a variable a value.
    ///
    /// ```yaml
    /// - set: total
    ///   to: 0
    /// ```
    func execute(_ set: SetStep, in scope: inout RunScope, record: inout StepTrace) throws -> IntentValue {
        let value = try values.evaluate(set.value, in: scope)
        scope.assign(value, to: set.variable.value)
        record.inputs = [set.variable.value: value]
        return value
    }

    /// `append:` adds a value to the list in a variable (an empty list at first).
    ///
    /// ```yaml
    /// - append: "${book.title}"
    ///   to: titles
    /// ```
    func execute(_ append: AppendStep, in scope: inout RunScope, record: inout StepTrace) throws -> IntentValue {
        let value = try values.evaluate(append.value, in: scope)
        let list = (scope[append.variable.value]?.elements ?? []) + [value]
        scope.assign(.list(list), to: append.variable.value)
        record.inputs = [append.variable.value: value]
        return .list(list)
    }
}

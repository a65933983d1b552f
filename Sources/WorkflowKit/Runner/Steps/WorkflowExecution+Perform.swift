import IntentKit

extension WorkflowExecution {
    /// `perform:` runs an intent with its `with:` values, shows its dialogs and snippet, and
    /// (unless `openWhenRun: false`) runs the intent its result opens.
    ///
    /// ```yaml
    /// - id: book
    ///   perform: Library.AddBook
    ///   with: { title: "${input.title}" }
    /// ```
    func execute(_ perform: PerformStep, in scope: RunScope, record: inout StepTrace) async throws -> IntentValue {
        let values = self.values
        var arguments: [String: IntentValue] = [:]
        for parameter in perform.parameters {
            arguments[parameter.name.value] = try values.evaluate(parameter.value, in: scope)
        }
        record.inputs = arguments
        let found = try intent(perform.intent)
        var performer = IntentPerformer(
            catalog: runner.catalog, interaction: runner.interaction, locale: runner.locale,
            runsOpenedIntents: perform.opensWhenRun)
        let detailLog = IntentDetailLog()
        performer.detailLog = detailLog
        defer { record.details = detailLog.details }
        do {
            let outcome = try await performer.perform(found, arguments: arguments)
            if outcome.dialog != nil || !outcome.opened.isEmpty {
                let said = ([outcome.dialog] + outcome.opened.map(\.dialog)).compactMap { $0 }
                for text in said { runner.show(text) }
                record.dialog = said.isEmpty ? nil : said.joined(separator: "\n")
            }
            if let snippet = outcome.snippet { runner.show(snippet) }
            return outcome.value ?? .null
        } catch let error as IntentError {
            throw WorkflowRunError(error.description, at: perform.intent.location, sources: sources, cause: error)
        }
    }
}

import Foundation

extension IntentPerformer {
    /// Runs an intent of a hosted app: checks and completes its values as for a Swift intent,
    /// asks the host to perform it, converts the returned value to the declared result type and
    /// runs the intent the result opens.
    func perform(_ intent: HostedIntent, in app: IntentApp, arguments: [String: IntentValue]) async throws -> PerformOutcome {
        try await prepare(app)
        let intentName = app.name + "." + intent.name
        let parameters = intent.parameters
        let collected = HostedArguments(defaults: parameters)
        let localization = localization(for: app)
        try await Localization.$current.withValue(localization) {
            try await assign(arguments, to: parameters.map { Slot.hosted($0, into: collected) }, named: intentName)
        }
        let request = HostedIntentRequest(
            app: app.name, intent: intent.name, arguments: collected.values, locale: locale, interaction: interaction)
        let result: HostedIntentResult
        do {
            result = try await Localization.$current.withValue(localization) { try await intent.app.host.perform(request) }
        } catch let error as CancellationError {
            throw error
        } catch let error as InteractionError {
            throw IntentError.interaction(intent: intentName, error)
        } catch let error as IntentError {
            throw error
        } catch {
            throw IntentError.performFailed(intent: intentName, message: Self.message(for: error, in: localization))
        }
        let shape = intent.resultShape
        var outcome = PerformOutcome(
            intentName: intentName, value: result.value.map { value in shape.valueType.map { intent.app.decode(value, as: $0) } ?? value },
            dialog: result.dialog, snippet: result.snippet, opened: [], pendingOpenIntent: nil, details: result.details)
        if let opened = result.opensIntent, runsOpenedIntents {
            guard let openedIntent = intent.app.intent(named: opened.intent) else {
                throw IntentError.performFailed(
                    intent: intentName, message: "the result opens '\(opened.intent)', which \(app.name) does not declare")
            }
            outcome.opened.append(try await perform(openedIntent, in: app, arguments: opened.arguments))
        }
        return outcome
    }
}

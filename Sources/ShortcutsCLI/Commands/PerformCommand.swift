import ArgumentParser
import Foundation
import IntentKit

struct PerformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perform",
        abstract: "Run one intent with parameter values.",
        discussion: """
            Values are text, converted to each parameter's type: numbers, true/false, ISO 8601 dates \
            (2018-08-14), enum cases by value or title, entities by identifier or title. A list \
            parameter takes the name repeated (tags=cat tags=home) or a JSON list (tags='["cat","home"]'); \
            commas are part of a value.
            Example: shortcuts perform Library.AddBook title="Where the Crawdads Sing"
            """)

    @Argument(
        help: ArgumentHelp("The intent, as App.Intent or Intent.", valueName: "intent"),
        completion: .custom(ShellCompletions.intents))
    var intent: String

    @Argument(help: ArgumentHelp("Parameter values.", valueName: "name=value"), completion: .custom(ShellCompletions.parameters))
    var values: [String] = []

    @Flag(name: .long, help: "Print the result as JSON: {\"intent\", \"value\", \"dialog\", \"snippet\", \"opened\"}.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("The same as --json when json.", visibility: .hidden))
    var outputType: OutputType?

    @Flag(name: .long, help: "Do not run the intent the result opens (Open When Run off).")
    var noOpen = false

    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var locale: LocaleOptions

    func validate() throws {
        for value in values where !value.contains("=") {
            throw ValidationError("'\(value)' is not a parameter value: write name=value")
        }
    }

    func run() async throws {
        let catalog = Installation.shared.catalog
        let arguments = Installation.shared.arguments
        let intentIndex = arguments.firstIndex(of: intent)
        let parameters = ParameterValues.parse(values)
        let performer = IntentPerformer(
            catalog: catalog, interaction: interaction.interaction, locale: locale.resolvedLocale,
            runsOpenedIntents: !noOpen)
        do {
            let outcome = try await performer.perform(intent, arguments: parameters)
            OutcomePrinter.print(outcome, json: json || outputType == .json)
        } catch let error as IntentError {
            throw CommandLineError(error, argument: argumentIndex(for: error, intentIndex: intentIndex, arguments: arguments))
        }
    }

    /// The argument an error is about: the intent's name, or a `name=value` pair.
    private func argumentIndex(for error: IntentError, intentIndex: Int?, arguments: [String]) -> Int? {
        switch error {
        case .unknownIntent, .ambiguousIntent: return intentIndex
        case .unknownParameter(_, let name, _, _), .invalidValue(_, let name, _):
            return arguments.firstIndex { $0.hasPrefix(name + "=") }
        default: return nil
        }
    }
}

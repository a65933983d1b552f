import ArgumentParser
import Foundation
import IntentKit

struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Run the App Shortcut whose phrase matches, as if it were spoken.",
        discussion: "Example: shortcuts say \"Open Want to Read in Library\"")

    @Argument(help: "The phrase.")
    var phrase: String

    @Flag(name: .long, help: "Print the result as JSON, as `perform --json` does.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("The same as --json when json.", visibility: .hidden))
    var outputType: OutputType?

    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        let catalog = Installation.shared.catalog
        let matcher = PhraseMatcher(catalog: catalog, locale: locale.resolvedLocale)
        let performer = IntentPerformer(catalog: catalog, interaction: interaction.interaction, locale: locale.resolvedLocale)
        // Placeholders are checked against the apps' data, which set-up opens.
        for app in catalog.apps { try await performer.prepare(app) }
        guard let match = await matcher.match(phrase) else {
            let known = matcher.phrases().map { candidate in
                candidate.template.replacingOccurrences(
                    of: "${applicationName}",
                    with: candidate.app.displayName(in: Localization(locale: locale.resolvedLocale, strings: candidate.app.strings)))
            }
            var help: [String] = []
            if let nearest = NameSuggestion.nearest(to: phrase, among: known) { help.append("did you mean \"\(nearest)\"?") }
            help.append("phrases: " + known.map { "\"\($0)\"" }.joined(separator: ", "))
            throw CommandLineError("no App Shortcut matches \"\(phrase)\"", help: help)
        }
        let intentType = type(of: match.intent)
        let outcome =
            match.arguments.isEmpty
            ? try await performer.perform(instance: match.intent, in: match.app)
            : try await performer.perform(intentType, in: match.app, arguments: match.arguments)
        OutcomePrinter.print(outcome, json: json || outputType == .json)
    }
}

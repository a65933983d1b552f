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

    @Option(name: .long, help: "Print the result as text or json.")
    var outputType: OutputType = .text

    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        let catalog = Installation.shared.catalog
        let matcher = PhraseMatcher(catalog: catalog, locale: locale.resolvedLocale)
        let performer = IntentPerformer(catalog: catalog, interaction: interaction.interaction, locale: locale.resolvedLocale)
        do {
            // Placeholders are checked against the apps' data, which set-up opens.
            for app in catalog.apps { try await performer.prepare(app) }
        } catch {
            Failure.exit(error)
        }
        guard let match = await matcher.match(phrase) else {
            let known = matcher.phrases().map { candidate in
                candidate.template.replacingOccurrences(
                    of: "${applicationName}",
                    with: candidate.app.displayName(in: Localization(locale: locale.resolvedLocale, strings: candidate.app.strings)))
            }
            var message = "no App Shortcut matches \"\(phrase)\""
            if let nearest = NameSuggestion.nearest(to: phrase, among: known) { message += "\nhelp: did you mean \"\(nearest)\"?" }
            message += "\nhelp: phrases: " + known.map { "\"\($0)\"" }.joined(separator: ", ")
            Failure.exit(PhraseError(message: message))
        }
        do {
            let intentType = type(of: match.intent)
            let outcome = match.arguments.isEmpty
                ? try await performer.perform(instance: match.intent, in: match.app)
                : try await performer.perform(intentType, in: match.app, arguments: match.arguments)
            print(outputType == .json ? OutcomePrinter.json(outcome) : OutcomePrinter.text(outcome))
        } catch {
            Failure.exit(error)
        }
    }

    struct PhraseError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

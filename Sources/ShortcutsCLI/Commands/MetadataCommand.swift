import ArgumentParser
import Foundation
import IntentKit

struct MetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Print the static metadata of every installed app as JSON.",
        discussion:
            "Apps, intents, parameters, entities with their properties, comparators and sort options, enums and App Shortcut phrases. The format is described by Schemas/metadata.schema.json."
    )

    @Flag(name: .long, help: "Accepted for uniformity: the metadata is always JSON.")
    var json = false

    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        let catalog = Installation.shared.catalog
        let json = try Localization.$current.withValue(Localization(locale: locale.resolvedLocale, strings: catalog.mergedStrings)) {
            try AppMetadata(catalog: catalog).jsonText()
        }
        print(json)
    }
}

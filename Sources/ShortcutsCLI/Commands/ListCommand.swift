import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the workflows in ./Workflows, their automations, or the installed intents, entities or enums.")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case workflows, intents, entities, enums, automations
    }

    @Argument(help: "What to list: workflows, intents, entities, enums or automations (those of ./Workflows).")
    var kind: Kind = .intents

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        if kind == .automations {
            if !AutomationListing.print(folder: "Workflows", json: json) { throw ExitCode(1) }
            return
        }
        let catalog = Installation.shared.catalog
        Localization.$current.withValue(Localization(locale: locale.resolvedLocale, strings: mergedStrings(catalog))) {
            let metadata = AppMetadata(catalog: catalog)
            switch kind {
            case .workflows:
                let rows = WorkflowFiles.all(in: URL(fileURLWithPath: "Workflows")).map { url -> [String] in
                    let workflow = try? WorkflowLoader.load(contentsOf: url)
                    return [url.path, workflow?.name?.value ?? "", workflow?.automation.map { "⏰ \($0.schedule.value)" } ?? ""]
                }
                if json { return printJSON(rows.map { ["file": $0[0], "name": $0[1]] }) }
                Table.print(rows)
            case .intents:
                let intents = metadata.apps.flatMap(\.intents).filter(\.isDiscoverable)
                if json { return printJSON(intents) }
                Table.print(intents.map { [$0.name, $0.title, $0.description ?? ""] })
            case .entities:
                let entities = metadata.apps.flatMap(\.entities)
                if json { return printJSON(entities) }
                Table.print(entities.map { [$0.name, $0.title, $0.properties.map(\.name).joined(separator: ", ")] })
            case .automations:
                break
            case .enums:
                let enums = metadata.apps.flatMap(\.enums)
                if json { return printJSON(enums) }
                Table.print(enums.map { [$0.name, $0.title, $0.cases.map(\.value).joined(separator: ", ")] })
            }
        }
    }

    private func printJSON<Value: Encodable>(_ value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: (try? encoder.encode(value)) ?? Data("[]".utf8), as: UTF8.self))
    }
}

/// The strings of every app, so that titles resolve whichever app they belong to.
func mergedStrings(_ catalog: IntentCatalog) -> StringsCatalog {
    var merged = StringsCatalog()
    for app in catalog.apps {
        for (locale, tables) in app.strings.tables {
            for (table, entries) in tables { merged.add(entries, table: table, locale: locale) }
        }
    }
    return merged
}

/// Prints rows as aligned columns.
enum Table {
    static func print(_ rows: [[String]]) {
        guard let columns = rows.map(\.count).max() else { return }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            Swift.print(cells.joined(separator: "  "))
        }
    }
}

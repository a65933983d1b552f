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

    @Flag(name: .long, help: "Print JSON: a list of objects (workflows: {\"file\", \"name\", \"automation\"}; others as in `metadata`).")
    var json = false

    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        if kind == .workflows || kind == .automations { try WorkflowFiles.requireFolder() }
        if kind == .automations {
            if try !AutomationListing.print(folder: WorkflowFiles.folderName, json: json, store: .environment) { throw ExitCode(1) }
            return
        }
        let catalog = Installation.shared.catalog
        let localization = Localization(locale: locale.resolvedLocale, strings: catalog.mergedStrings)
        let metadata = Localization.$current.withValue(localization) { AppMetadata(catalog: catalog) }
        switch kind {
        case .workflows:
            let files = WorkflowFiles.all(in: URL(fileURLWithPath: WorkflowFiles.folderName))
            let workflows = files.map { ($0, try? WorkflowLoader.load(contentsOf: $0)) }
            if json {
                return print(
                    IntentValue.list(
                        workflows.map { url, workflow in
                            .dictionary([
                                "file": .string(url.relativePath),
                                "name": workflow?.name.map { .string($0.value) } ?? .null,
                                "automation": workflow?.automation.map(TriggerText.object(of:)) ?? .null
                            ])
                        }
                    ).jsonText)
            }
            guard !workflows.isEmpty else { return print("No workflows in ./\(WorkflowFiles.folderName).") }
            Table.print(
                workflows.map { url, workflow in
                    [
                        url.relativePath, workflow?.name?.value ?? "",
                        workflow?.automation.map { "⏰ " + $0.triggerPhrases.joined(separator: "; ") } ?? ""
                    ]
                })
        case .intents:
            let intents = metadata.apps.flatMap(\.intents).filter(\.isDiscoverable)
            if json { return print(try JSONText.encode(intents)) }
            guard !intents.isEmpty else { return print("No intents installed.") }
            Table.print(intents.map { [$0.name, $0.title, $0.description ?? ""] })
        case .entities:
            let entities = metadata.apps.flatMap(\.entities)
            if json { return print(try JSONText.encode(entities)) }
            guard !entities.isEmpty else { return print("No entities installed.") }
            Table.print(entities.map { [$0.name, $0.title, $0.properties.map(\.name).joined(separator: ", ")] })
        case .enums:
            let enums = metadata.apps.flatMap(\.enums)
            if json { return print(try JSONText.encode(enums)) }
            guard !enums.isEmpty else { return print("No enums installed.") }
            Table.print(enums.map { [$0.name, $0.title, $0.cases.map(\.value).joined(separator: ", ")] })
        case .automations:
            break
        }
    }
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
            CommandOutput.current.print(cells.joined(separator: "  ") + "\n")
        }
    }
}

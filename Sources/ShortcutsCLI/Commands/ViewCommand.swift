import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show an intent (summary, parameters with types and defaults, result) or a workflow file.")

    @Argument(
        help: ArgumentHelp("The intent, as App.Intent or Intent, or a workflow: a path, or a name in ./Workflows.", valueName: "intent-or-workflow"),
        completion: .custom(ShellCompletions.intentsAndWorkflowFiles))
    var intent: String

    @Flag(name: .long, help: "Print JSON: the intent's metadata (as in `metadata`), or the workflow's outline.")
    var json = false

    @OptionGroup var locale: LocaleOptions

    /// Prints a workflow file's outline.
    private func show(_ url: URL) throws {
        let workflow: Workflow
        do {
            workflow = try WorkflowLoader.load(contentsOf: url)
        } catch {
            throw CommandLineError(error)
        }
        print(json ? WorkflowView.object(workflow).jsonText : WorkflowView.render(workflow))
    }

    func run() async throws {
        let catalog = Installation.shared.catalog
        if intent.hasSuffix(".yaml") || intent.hasSuffix(".yml") {
            try FileProblem.checkReadableFile(intent, role: "the workflow", hint: "give the path of a .yaml workflow file")
            try show(URL(fileURLWithPath: intent))
            return
        }
        let found: IntentCatalog.FoundIntent
        do {
            found = try catalog.intent(named: intent)
        } catch {
            // Not an intent: a workflow of ./Workflows by name, as `run NAME` finds it.
            if let url = try? WorkflowFiles.find(intent) {
                try show(url)
                return
            }
            var report = CommandLineError(error, argument: Installation.shared.arguments.firstIndex(of: intent))
            if WorkflowFiles.folderExists {
                report.help.append(
                    "nor is it a workflow: `\(Installation.shared.commandName) list workflows` lists those in ./\(WorkflowFiles.folderName)")
            }
            throw report
        }
        let localization = Localization(locale: locale.resolvedLocale, strings: found.app.strings)
        if json {
            let metadata = Localization.$current.withValue(localization) { AppMetadata(catalog: catalog) }
            let described = metadata.apps.flatMap(\.intents).first { $0.name == found.name }
            print(try JSONText.encode(described))
            return
        }
        Localization.$current.withValue(localization) {
            print(IntentView.render(found))
        }
    }
}

/// The text `shortcuts view` prints for an intent.
enum IntentView {
    static func render(_ found: IntentCatalog.FoundIntent) -> String {
        let definition = found.definition
        var lines = ["\(found.name) — \(definition.title)"]
        if let description = definition.descriptionText { lines.append(description) }
        let summary = definition.summary
        lines.append("")
        lines.append("Summary: \(summary.text)")
        if !summary.moreParameters.isEmpty {
            lines.append("         also: " + summary.moreParameters.joined(separator: ", "))
        }
        let parameters = definition.parameters
        if !parameters.isEmpty {
            lines.append("")
            lines.append("Parameters:")
            let nameWidth = parameters.map(\.name.count).max() ?? 0
            let typeWidth = parameters.map(\.type.description.count).max() ?? 0
            for parameter in parameters {
                var detail: [String] = []
                if let value = parameter.defaultValue {
                    detail.append("default: \(value.displayText)")
                } else {
                    detail.append(parameter.isOptional ? "optional" : "required")
                }
                detail.append("\"\(parameter.title.description)\"")
                if let dialog = parameter.requestValueDialog { detail.append("asks: \(dialog.full.description)") }
                lines.append(
                    "  " + parameter.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                        + parameter.type.description.padding(toLength: typeWidth, withPad: " ", startingAt: 0) + "  "
                        + detail.joined(separator: "  "))
            }
        }
        lines.append("")
        lines.append("Result: \(definition.resultShape.description)")
        lines.append("Opens the app when run: \(definition.openAppWhenRun ? "yes" : "no")")
        return lines.joined(separator: "\n")
    }
}

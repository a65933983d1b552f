import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show an intent (summary, parameters with types and defaults, result) or a workflow file.")

    @Argument(help: ArgumentHelp("The intent, as App.Intent or Intent, or a workflow file.", valueName: "intent-or-file"))
    var intent: String

    @OptionGroup var locale: LocaleOptions

    func run() async throws {
        let catalog = Installation.shared.catalog
        if intent.hasSuffix(".yaml") || intent.hasSuffix(".yml") {
            do {
                print(WorkflowView.render(try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: intent))))
            } catch {
                FileHandle.standardError.write(Data((error.rendered() + "\n").utf8))
                Foundation.exit(1)
            }
            return
        }
        let found: IntentCatalog.FoundIntent
        do {
            found = try catalog.intent(named: intent)
        } catch {
            Failure.exit(error, argument: Installation.shared.arguments.firstIndex(of: intent))
        }
        let localization = Localization(locale: locale.resolvedLocale, strings: found.app.strings)
        Localization.$current.withValue(localization) {
            print(IntentView.render(found))
        }
    }
}

/// The text `shortcuts view` prints for an intent.
enum IntentView {
    static func render(_ found: IntentCatalog.FoundIntent) -> String {
        let type = found.type
        var lines = ["\(found.name) — \(type.title.description)"]
        if let description = type.description { lines.append(description.text.description) }
        let summary = ParameterSummaryRenderer.render(type)
        lines.append("")
        lines.append("Summary: \(summary.text)")
        if !summary.moreParameters.isEmpty {
            lines.append("         also: " + summary.moreParameters.joined(separator: ", "))
        }
        let parameters = IntentIntrospection.parameters(of: type)
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
                lines.append("  " + parameter.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + parameter.type.description.padding(toLength: typeWidth, withPad: " ", startingAt: 0) + "  "
                    + detail.joined(separator: "  "))
            }
        }
        lines.append("")
        lines.append("Result: \(type.resultShape.description)")
        lines.append("Opens the app when run: \(type.openAppWhenRun ? "yes" : "no")")
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import AutomationKit
import Foundation
import IntentKit
import WorkflowKit

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check workflow files without running them; exit 1 with every error located.",
        discussion:
            "Files with an automation: block, or all files with --no-interaction, are checked as headless runs: required parameters and questions must be answerable without asking. The automation: block itself is checked too: its triggers (schedule, webhook, watch), the time zone, the timeout, and the inputs each trigger must give. Each ${secrets.NAME} must name a stored secret (shortcuts secrets list); ${env.NAME} is checked only when a run reads it."
    )

    @Argument(help: "The workflow files.", completion: .file(extensions: ["yaml", "yml"]))
    var files: [String]

    @Flag(name: .long, help: "Check as a run that cannot ask questions.")
    var noInteraction = false

    @Flag(name: .long, help: "Print the result as JSON: {\"files\": [{\"file\", \"valid\", \"diagnostics\": [...]}]}.")
    var json = false

    func run() async throws {
        var reports: [IntentValue] = []
        var failed = false
        for file in files {
            let diagnostics: [Diagnostic]
            var rendered: String
            do {
                try FileProblem.checkReadableFile(file, role: "the workflow", hint: "give the path of a .yaml workflow file")
                let check = WorkflowFileCheck(
                    contentsOf: URL(fileURLWithPath: file), catalog: Installation.shared.catalog, isHeadless: noInteraction,
                    secrets: SecretStore.standard())
                diagnostics = check.diagnostics.map(CommandLineError.withHint)
                rendered = DiagnosticRenderer(sources: check.sources).render(diagnostics)
            } catch {
                let problem = CommandLineError(error)
                diagnostics = [
                    Diagnostic.error(
                        problem.message, at: SourceLocation(file: file, line: 1, column: 1),
                        help: problem.help.first)
                ]
                rendered = problem.description
            }
            failed = failed || !diagnostics.isEmpty
            if json {
                reports.append(
                    .dictionary([
                        "file": .string(file), "valid": .bool(diagnostics.isEmpty),
                        "diagnostics": .list(diagnostics.map(Self.object))
                    ]))
            } else if diagnostics.isEmpty {
                print("\(file): valid")
            } else {
                FileHandle.standardError.write(Data((rendered + "\n").utf8))
            }
        }
        if json { print(IntentValue.dictionary(["files": .list(reports)]).jsonText) }
        if failed { throw ExitCode(1) }
    }

    /// A diagnostic as JSON: `{"severity", "message", "file", "line", "column", "help"}`.
    static func object(_ diagnostic: Diagnostic) -> IntentValue {
        .dictionary([
            "severity": .string(diagnostic.severity.rawValue), "message": .string(diagnostic.message),
            "file": .string(diagnostic.location.file), "line": .int(diagnostic.location.line),
            "column": .int(diagnostic.location.column), "help": diagnostic.help.map(IntentValue.string) ?? .null
        ])
    }
}

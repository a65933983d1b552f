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
            "Files with an automation: block, or all files with --no-interaction, are checked as headless runs: required parameters and questions must be answerable without asking. The automation: block itself is checked too: its triggers (schedule, webhook, watch), the time zone, the timeout, and the inputs each trigger must give. Webhook names must differ among the files given, as among a folder's files. Each ${secrets.NAME} must name a stored secret (shortcuts secrets list); ${env.NAME} is checked only when a run reads it."
    )

    @Argument(help: "The workflow files.", completion: .file(extensions: ["yaml", "yml"]))
    var files: [String]

    @Flag(name: .long, help: "Check as a run that cannot ask questions.")
    var noInteraction = false

    @Flag(name: .long, help: "Print the result as JSON: {\"files\": [{\"file\", \"valid\", \"diagnostics\": [...]}]}.")
    var json = false

    func run() async throws {
        var results = files.map(check)
        // The files given together are checked as one folder's: a webhook name that an earlier
        // file (by path, as the daemon reads a folder) has is an error in the later one. A file
        // given twice counts once.
        var seen: Set<String> = []
        let named = results.indices.sorted { files[$0] < files[$1] }.compactMap { index in
            seen.insert(URL(fileURLWithPath: files[index]).standardizedFileURL.path).inserted
                ? results[index].webhook.map { (index: index, webhook: $0) } : nil
        }
        for diagnostic in WorkflowValidator.duplicateWebhookDiagnostics(named.map(\.webhook)) {
            guard let index = named.first(where: { $0.webhook.name.location == diagnostic.location })?.index else { continue }
            results[index].diagnostics.append(CommandLineError.withHint(diagnostic))
        }
        var reports: [IntentValue] = []
        for (file, result) in zip(files, results) {
            if json {
                reports.append(
                    .dictionary([
                        "file": .string(file), "valid": .bool(result.diagnostics.isEmpty),
                        "diagnostics": .list(result.diagnostics.map(Self.object))
                    ]))
            } else if result.diagnostics.isEmpty {
                print("\(file): valid")
            } else {
                CommandOutput.current.writeError(Data((result.rendered() + "\n").utf8))
            }
        }
        if json { print(IntentValue.dictionary(["files": .list(reports)]).jsonText) }
        if results.contains(where: { !$0.diagnostics.isEmpty }) { throw ExitCode(1) }
    }

    /// What one file's check found, and how to show it.
    private struct FileResult {
        var diagnostics: [Diagnostic]
        /// The automation's webhook, when the file loaded.
        var webhook: AutomationBlock.Webhook?
        /// The file's text by path, to show each diagnostic's line; nil when the file could not
        /// be read, whose one problem is then shown as ``unreadable``.
        var sources: [String: String]?
        var unreadable: String = ""

        func rendered() -> String {
            guard let sources else { return unreadable }
            return DiagnosticRenderer(sources: sources).render(diagnostics)
        }
    }

    private func check(_ file: String) -> FileResult {
        do {
            try FileProblem.checkReadableFile(file, role: "the workflow", hint: "give the path of a .yaml workflow file")
            let check = WorkflowFileCheck(
                contentsOf: URL(fileURLWithPath: file), catalog: Installation.shared.catalog, isHeadless: noInteraction,
                secrets: SecretStore.standard())
            return FileResult(
                diagnostics: check.diagnostics.map(CommandLineError.withHint), webhook: check.workflow?.automation?.webhook,
                sources: check.sources)
        } catch {
            let problem = CommandLineError(error)
            let diagnostic = Diagnostic.error(
                problem.message, at: SourceLocation(file: file, line: 1, column: 1), help: problem.help.first)
            return FileResult(diagnostics: [diagnostic], sources: nil, unreadable: problem.description)
        }
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

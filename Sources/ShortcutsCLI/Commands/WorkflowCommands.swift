import ArgumentParser
import AutomationKit
import Foundation
import IntentKit
import WorkflowKit

/// Finds a workflow file by path, or by name in `./Workflows` (file name or `name:`).
enum WorkflowFiles {
    static func find(_ reference: String) throws -> URL {
        let manager = FileManager.default
        if manager.fileExists(atPath: reference) { return URL(fileURLWithPath: reference) }
        let folder = URL(fileURLWithPath: "Workflows")
        for candidate in [reference + ".yaml", reference + ".yml"] {
            let url = folder.appendingPathComponent(candidate)
            if manager.fileExists(atPath: url.path) { return url }
        }
        for url in all(in: folder) {
            if let workflow = try? WorkflowLoader.load(contentsOf: url), workflow.name?.value == reference { return url }
        }
        let names = all(in: folder).map { $0.deletingPathExtension().lastPathComponent }
        var message = "no workflow file or name '\(reference)'"
        if let nearest = NameSuggestion.nearest(to: reference, among: names) { message += "\nhelp: did you mean '\(nearest)'?" }
        message += "\nhelp: `shortcuts list workflows` lists the workflows in ./Workflows"
        throw CommandFailure(message: message)
    }

    static func all(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// Loads and validates a workflow, or prints every diagnostic and exits 1.
    static func loadValid(_ url: URL, isHeadless: Bool, answered: Set<String>) -> Workflow {
        let workflow: Workflow
        let validator = WorkflowValidator(catalog: Installation.shared.catalog, isHeadless: isHeadless, answeredNames: answered)
        do {
            workflow = try WorkflowLoader.load(contentsOf: url)
        } catch {
            FileHandle.standardError.write(Data((error.addingDiagnostics(of: validator.check).rendered() + "\n").utf8))
            Foundation.exit(1)
        }
        let (diagnostics, sources) = validator.check(workflow)
        if !diagnostics.isEmpty {
            let rendered = DiagnosticRenderer(sources: sources).render(diagnostics)
            FileHandle.standardError.write(Data((rendered + "\n").utf8))
            Foundation.exit(1)
        }
        return workflow
    }
}

/// Cancels a run when Ctrl-C is pressed, even if that happens before the run's task exists.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<WorkflowRunResult, any Error>?
    private var isInterrupted = false

    func attach(_ task: Task<WorkflowRunResult, any Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return isInterrupted
        }
        if cancelNow { task.cancel() }
    }

    func interrupt() {
        let task = lock.withLock { () -> Task<WorkflowRunResult, any Error>? in
            isInterrupted = true
            return self.task
        }
        task?.cancel()
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow file (or a workflow of ./Workflows by name).",
        discussion: """
            The file is validated first; every mistake is reported with its file:line:column.
            Example: shortcuts run Workflows/add-and-open.yaml --input title="Where the Crawdads Sing"
            """)

    @Argument(help: ArgumentHelp("The workflow: a path, or a name in ./Workflows.", valueName: "file-or-name"))
    var workflow: String

    @Option(name: .long, help: ArgumentHelp("An input value.", valueName: "name=value"))
    var input: [String] = []

    @Option(name: .long, help: ArgumentHelp("A JSON object of input values.", valueName: "file"))
    var inputPath: String?

    @Option(name: .long, help: ArgumentHelp("Also write the output to this file.", valueName: "file"))
    var outputPath: String?

    @Option(name: .long, help: "Print the output as text or json (json sends shown text to standard error).")
    var outputType: OutputType = .text

    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var locale: LocaleOptions

    func validate() throws {
        for value in input where !value.contains("=") {
            throw ValidationError("--input '\(value)' must be written name=value")
        }
    }

    func run() async throws {
        let url: URL
        do {
            url = try WorkflowFiles.find(workflow)
        } catch {
            Failure.exit(error)
        }
        var inputs: [String: IntentValue] = [:]
        if let inputPath {
            do {
                let text = try String(contentsOfFile: inputPath, encoding: .utf8)
                guard case .dictionary(let values) = try IntentValue.fromJSON(text) else {
                    throw CommandFailure(message: "\(inputPath) must hold a JSON object of input values")
                }
                inputs.merge(values) { $1 }
            } catch {
                Failure.exit(CommandFailure(message: "cannot read --input-path \(inputPath): \(error)"))
            }
        }
        inputs.merge(NameValuePairs.parse(input).mapValues(IntentValue.string)) { $1 }
        let answered = Set(NameValuePairs.parse(interaction.answer).keys)
        let isHeadless = interaction.noInteraction || !TerminalInteraction.isAvailable
        let loaded = WorkflowFiles.loadValid(url, isHeadless: isHeadless, answered: answered)
        let outputType = outputType
        let history: RunHistory
        do {
            history = try RunHistory.shared()
        } catch {
            Failure.exit(CommandFailure(message: "cannot open the run history: \(error)"))
        }
        let runner = WorkflowRunner(
            catalog: Installation.shared.catalog, interaction: interaction.interaction, locale: locale.resolvedLocale,
            history: history,
            show: { text in
                let line = Data((text + "\n").utf8)
                if outputType == .json { FileHandle.standardError.write(line) } else { FileHandle.standardOutput.write(line) }
            })
        // Ctrl-C cancels the run, which stops at the next step (or wait) and is recorded as
        // cancelled. The watch is registered before the run starts, so no Ctrl-C is lost.
        let interrupted = Interruption()
        let watch = SignalWatch([SIGINT]) { _ in interrupted.interrupt() }
        defer { watch.stop() }
        let task = Task { try await runner.run(loaded, inputs: inputs) }
        interrupted.attach(task)
        do {
            let result = try await task.value
            let text = outputType == .json ? result.output.jsonText : result.output.displayText
            if !(outputType == .text && result.output.isNull) { print(text) }
            if let outputPath {
                try (result.output.jsonText + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
            }
        } catch let error as WorkflowRunError {
            FileHandle.standardError.write(Data((error.rendered() + "\n").utf8))
            Foundation.exit(1)
        } catch is WorkflowCancelled {
            FileHandle.standardError.write(Data("cancelled\n".utf8))
            Foundation.exit(130)
        } catch {
            Failure.exit(error)
        }
    }
}

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check workflow files without running them; exit 1 with every error located.",
        discussion: "Files with an automation: block, or all files with --no-interaction, are checked as headless runs: required parameters and questions must be answerable without asking. The automation: block itself is checked too: the cron schedule, the time zone, the timeout, inputs with defaults.")

    @Argument(help: "The workflow files.")
    var files: [String]

    @Flag(name: .long, help: "Check as a run that cannot ask questions.")
    var noInteraction = false

    func run() async throws {
        var failed = false
        for file in files {
            let workflow: Workflow
            do {
                workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: file))
            } catch {
                let validator = WorkflowValidator(catalog: Installation.shared.catalog,
                                                    isHeadless: noInteraction || error.loadedPart?.automation != nil)
                FileHandle.standardError.write(Data((error.addingDiagnostics(of: validator.check).rendered() + "\n").utf8))
                failed = true
                continue
            }
            let validator = WorkflowValidator(catalog: Installation.shared.catalog,
                                              isHeadless: noInteraction || workflow.automation != nil)
            let (diagnostics, sources) = validator.check(workflow)
            if diagnostics.isEmpty {
                print("\(file): valid")
            } else {
                failed = true
                FileHandle.standardError.write(Data((DiagnosticRenderer(sources: sources).render(diagnostics) + "\n").utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }
}

struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of workflow files, specialised to the installed intents.",
        discussion: "Save it beside your workflows and point editors at it: # yaml-language-server: $schema=workflow.schema.json")

    @Flag(name: .long, help: "Print the general schema instead (Schemas/workflow.schema.json).")
    var general = false

    func run() async throws {
        print(general ? try WorkflowSchema.general() : try WorkflowSchema.specialized(for: Installation.shared.catalog))
    }
}

/// The text `shortcuts view FILE` prints for a workflow.
enum WorkflowView {
    static func render(_ workflow: Workflow) -> String {
        var lines = [workflow.name?.value ?? URL(fileURLWithPath: workflow.fileName).lastPathComponent]
        if let description = workflow.description?.value { lines.append(description) }
        if !workflow.inputs.isEmpty {
            lines.append("")
            lines.append("Inputs:")
            for input in workflow.inputs {
                lines.append("  \(input.name.value): \(input.type.value)" + (input.description.map { "  \($0)" } ?? ""))
            }
        }
        lines.append("")
        lines.append("Steps:")
        func outline(_ steps: [Step], depth: Int) {
            for step in steps {
                let indent = String(repeating: "  ", count: depth + 1)
                var line = "\(indent)\(step.location.line): \(step.kind.keyword)"
                switch step.kind {
                case .perform(let perform): line += " \(perform.intent.description)"
                case .find(let find): line += " \(find.entity.description)"
                case .search(let search):
                    if let entity = search.entity { line += " \(entity.description)" }
                    if let index = search.index { line += " in \(index.value)" }
                case .run(let nested): line += " \(nested.workflow.value)"
                case .set(let set): line += " \(set.variable.value)"
                default: break
                }
                if let id = step.id?.value { line += "  → \(id)" }
                lines.append(line)
                switch step.kind {
                case .if(let branch):
                    outline(branch.thenSteps, depth: depth + 1)
                    if !branch.elseSteps.isEmpty {
                        lines.append("\(indent)else")
                        outline(branch.elseSteps, depth: depth + 1)
                    }
                case .repeat(let loop): outline(loop.steps, depth: depth + 1)
                case .menu(let menu):
                    for option in menu.options {
                        lines.append("\(indent)  \"\(option.title.value)\":")
                        outline(option.steps, depth: depth + 2)
                    }
                default: break
                }
            }
        }
        outline(workflow.steps, depth: 0)
        if let automation = workflow.automation {
            lines.append("")
            lines.append("Automation: \(automation.schedule.value)" + (automation.timeZone.map { " (\($0.value))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}

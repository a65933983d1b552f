import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow file (or a workflow of ./Workflows by name).",
        discussion: """
            The file is validated first; every mistake is reported with its file:line:column.
            With --json (or --output-path -), standard output carries only the output as JSON and shown text goes to standard error.
            Example: shortcuts run Workflows/add-and-open.yaml --input title="Where the Crawdads Sing"
            """)

    @Argument(
        help: ArgumentHelp("The workflow: a path, or a name in ./Workflows.", valueName: "file-or-name"),
        completion: .custom(ShellCompletions.workflows))
    var workflow: String

    @Option(
        name: .long, help: ArgumentHelp("An input value; a list input takes JSON (tags=[\"a\",\"b\"]) or the name repeated.", valueName: "name=value")
    )
    var input: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("A JSON object of input values; - reads it from standard input.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var inputPath: String?

    @Option(
        name: .long, help: ArgumentHelp("Also write the output as JSON to this file; - writes it to standard output.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var outputPath: String?

    @Flag(name: .long, help: "Print the output as JSON (shown text goes to standard error).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("The same as --json when json.", visibility: .hidden))
    var outputType: OutputType?

    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var locale: LocaleOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        for value in input where !value.contains("=") {
            throw ValidationError("--input '\(value)' must be written name=value")
        }
    }

    /// Whether standard output carries only the output as JSON.
    var printsJSON: Bool { json || outputType == .json || outputPath == "-" }

    func run() async throws {
        let url = try WorkflowFiles.find(workflow)
        var inputs = try inputPath.map(ParameterValues.read(inputPath:)) ?? [:]
        inputs.merge(ParameterValues.parse(input)) { $1 }
        if let outputPath, outputPath != "-" {
            try FileProblem.checkWritableFile(
                outputPath, role: "--output-path", hint: "give a file in a folder you can write, or - for standard output")
        }
        let answered = Set(NameValuePairs.parse(interaction.answer).keys)
        let isHeadless = interaction.noInteraction || !TerminalInteraction.isAvailable
        let loaded = try WorkflowFiles.loadValid(url, isHeadless: isHeadless, answered: answered)
        let history: RunHistory?
        do {
            history = try StateStores.history(store.source)
        } catch {
            var report = CommandLineError(error)
            report.message = "cannot open the run history: " + report.message
            throw report
        }
        let printsJSON = printsJSON
        let runner = WorkflowRunner(
            catalog: Installation.shared.catalog, interaction: interaction.interaction, locale: locale.resolvedLocale,
            history: history,
            show: { text in
                let line = Data((text + "\n").utf8)
                if printsJSON { CommandOutput.current.writeError(line) } else { CommandOutput.current.write(line) }
            })
        // Ctrl-C, SIGTERM and SIGHUP cancel the run, which stops at the next step (or wait),
        // ends the programs its steps started and is recorded as cancelled; the command then
        // exits with 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM). A second
        // signal ends the command at once. The watch is registered before the run starts, so no signal
        // is lost.
        let interrupted = Interruption()
        let watch = SignalWatch([SIGINT, SIGTERM, SIGHUP]) { number in
            // A second signal ends the process by it, at once: what the run started is ended
            // by the guard (ChildGroups).
            if interrupted.interrupt(by: number) > 1 {
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        defer { watch.stop() }
        let task = Task { try await runner.run(loaded, inputs: inputs) }
        interrupted.attach(task)
        let result: WorkflowRunResult
        do {
            result = try await task.value
        } catch is WorkflowCancelled where interrupted.signal != nil {
            throw CommandLineError(rendered: "cancelled", exitCode: 128 + (interrupted.signal ?? SIGINT))
        }
        if printsJSON {
            print(result.output.jsonText)
        } else if !result.output.isNull {
            print(result.output.displayText)
        }
        if let outputPath, outputPath != "-" {
            do {
                try (result.output.jsonText + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
            } catch {
                var problem = FileProblem(error) ?? FileProblem(role: "", path: outputPath, reason: "\(error)", hint: nil)
                problem.role = "--output-path"
                problem.path = outputPath
                problem.isWrite = true
                throw CommandLineError(problem)
            }
        }
    }
}

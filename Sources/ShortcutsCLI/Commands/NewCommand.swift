import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new workflow from a template: a commented file that validates and runs as it is.",
        discussion: """
            A NAME without a folder is written as Workflows/NAME.yaml (the folder `run NAME` and the \
            daemon read, created if missing); a path is written where it says. An existing file is \
            left as it is.
            Examples:
              shortcuts new --list
              shortcuts new photos-backup --from backup
              shortcuts new ~/chores/inbox.yaml --from watch-folder
            """)

    @Argument(help: ArgumentHelp("The workflow's name, or the path of the file to write.", valueName: "name-or-file"))
    var name: String?

    @Option(
        name: .long, help: ArgumentHelp("The template to start from (see --list).", valueName: "template"),
        completion: .custom(ShellCompletions.templates))
    var from = "blank"

    @Flag(name: .long, help: "List the templates and what each does.")
    var list = false

    @Flag(name: .long, help: "With --list, print JSON.")
    var json = false

    func validate() throws {
        if !list && name == nil { throw ValidationError("give the new workflow's name, such as `new photos-backup --from backup`, or --list") }
    }

    func run() async throws {
        if list {
            let templates = WorkflowTemplate.all
            if json {
                print(IntentValue.list(templates.map { .dictionary(["name": .string($0.name), "description": .string($0.summary)]) }).jsonText)
            } else {
                Table.print([["TEMPLATE", "WHAT IT DOES"]] + templates.map { [$0.name, $0.summary] })
            }
            return
        }
        guard let name else { return }
        guard let template = WorkflowTemplate.named(from) else {
            var help = ["`\(Installation.shared.commandName) new --list` lists them"]
            if let nearest = NameSuggestion.nearest(to: from, among: WorkflowTemplate.all.map(\.name)) {
                help.insert("did you mean '\(nearest)'?", at: 0)
            }
            throw CommandLineError(
                "no template '\(from)'", help: help, exitCode: 64, argumentIndex: Installation.shared.arguments.lastIndex(of: from))
        }
        let path = Self.path(for: name)
        let url = URL(fileURLWithPath: HomeFolder.expandingTilde(path))
        let stem = url.deletingPathExtension().lastPathComponent
        let text = template.text(name: WorkflowTemplate.title(stem), file: path)
        if FileManager.default.fileExists(atPath: url.path) {
            throw CommandLineError(
                "\(path) already exists, and is left as it is", help: ["give another name, or remove the file first"])
        }
        // What is written validates: a name that would not (a quote, a colon) is refused first.
        do {
            _ = try WorkflowLoader.load(text: text, fileName: path)
        } catch {
            throw CommandLineError(
                "the name '\(stem)' cannot be a workflow's name", help: ["use letters, digits, spaces, '-' and '_', such as photos-backup"])
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileProblem.checkWritableFile(url.path, role: "the new workflow", hint: "give a path in a folder you can write")
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
        } catch {
            throw CommandLineError(error)
        }
        let command = Installation.shared.commandName
        let runName = path == Self.path(for: stem) ? stem : path
        print(
            """
            Wrote \(path) from the \(template.name) template.
            Next: edit it, then `\(command) validate \(path)` and `\(command) run \(runName)`.
            """)
    }

    /// Where a workflow named on the command line is written: `Workflows/NAME.yaml` for a bare
    /// name, the path itself otherwise (with `.yaml` added when it has no extension).
    static func path(for name: String) -> String {
        let isPath = name.contains("/") || name.hasPrefix("~")
        let file = name.hasSuffix(".yaml") || name.hasSuffix(".yml") ? name : name + ".yaml"
        return isPath ? file : WorkflowFiles.folderName + "/" + file
    }
}

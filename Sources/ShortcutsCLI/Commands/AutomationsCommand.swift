import ArgumentParser
import AutomationKit
import Clockwork
import Foundation
import IntentKit
import StateStorage
import WorkflowKit

struct AutomationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "automations",
        abstract: "List the automations of a folder with their triggers, next and last due times, or run one now.",
        subcommands: [List.self, Run.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the automations: triggers, next due time, last due time and how it went.",
            discussion: "Files with errors are reported with their located errors, and the exit status is then 1.")

        @Option(name: .long, help: ArgumentHelp("The folder of workflow files.", valueName: "dir"))
        var workflows = "Workflows"

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            if try !AutomationListing.print(folder: workflows, json: json, store: store.source) { throw ExitCode(1) }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run an automation now, as the daemon would: headless, with its timeout and retries.",
            discussion: """
                The run is recorded in the run history with the trigger 'manual'; no due time is claimed. Any automation \
                runs this way, whatever its triggers; --input and --input-path give it inputs, as a webhook's request or a \
                file event would (a file trigger gives 'file' and 'event'). With a shared database ($SHORTCUTS_DATABASE_URL \
                or --database) and a live daemon on it, the run is queued for the daemons, one of which runs it, and this \
                command waits for it and prints how it went; without a live daemon, or with --here, it runs in this process.
                Example: shortcuts automations run nightly-report
                Example: shortcuts automations run sort-downloads --input file=~/Downloads/invoice.pdf --input event=created
                """
        )

        @Argument(help: "The automation: its name:, or its file name with or without .yaml.", completion: .custom(ShellCompletions.automations))
        var name: String

        @Option(name: .long, help: ArgumentHelp("The folder of workflow files.", valueName: "dir"))
        var workflows = "Workflows"

        @Option(
            name: .long,
            help: ArgumentHelp("An input value; a list input takes JSON (tags=[\"a\",\"b\"]) or the name repeated.", valueName: "name=value"))
        var input: [String] = []

        @Option(
            name: .long, help: ArgumentHelp("A JSON object of input values; - reads it from standard input.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var inputPath: String?

        @OptionGroup var locale: LocaleOptions

        @Flag(name: .long, help: "Print the result as JSON: {\"status\", \"output\", \"error\", \"runIDs\"}; shown text goes to standard error.")
        var json = false

        @Flag(name: .long, help: "Run it in this process, even when daemons share the database.")
        var here = false

        @OptionGroup var store: StoreOptions

        struct Result: Encodable {
            var status: String
            var output: IntentValue?
            var error: String?
            var runIDs: [String]
        }

        func validate() throws {
            for value in input where !value.contains("=") {
                throw ValidationError("--input '\(value)' must be written name=value")
            }
        }

        func run() async throws {
            try AutomationListing.requireFolder(workflows)
            var inputs = try inputPath.map(ParameterValues.read(inputPath:)) ?? [:]
            inputs.merge(ParameterValues.parse(input)) { $1 }
            let folder = AutomationFolder.load(URL(fileURLWithPath: workflows, isDirectory: true), catalog: Installation.shared.catalog)
            guard let automation = folder.automations.first(where: { AutomationListing.names(of: $0.file, name: $0.name).contains(name) }) else {
                if let problem = folder.problems.first(where: { error in
                    error.diagnostics.contains { AutomationListing.names(of: URL(fileURLWithPath: $0.location.file), name: nil).contains(name) }
                }) {
                    throw CommandLineError(rendered: problem.rendered())
                }
                let names = folder.automations.flatMap { [$0.name, $0.file.deletingPathExtension().lastPathComponent] }
                var message = "no automation '\(name)' in \(workflows)"
                if let nearest = NameSuggestion.nearest(to: name, among: names) { message += "\nhelp: did you mean '\(nearest)'?" }
                message += "\nhelp: `shortcuts automations list --workflows \(workflows)` lists them"
                throw CommandLineError(message)
            }
            let history: RunHistory
            if let source = store.source {
                let stores = try StateStores.open(source)
                if !here, let result = try await Self.runByDaemon(automation, inputs: inputs, stores: stores) {
                    return try report(result)
                }
                history = stores.history
            } else {
                do {
                    history = try RunHistory.shared(clock: TaskClock.current)
                } catch {
                    throw CommandLineError("cannot open the run history: \(error)")
                }
            }
            let locale = locale.resolvedLocale
            let catalog = Installation.shared.catalog
            let output = CommandOutput.current
            let shownTo: @Sendable (Data) -> Void = json ? output.writeError : output.write
            let clock = TaskClock.current
            let task = Task {
                await automation.runNow(
                    inputs: inputs, catalog: catalog, history: history, locale: locale,
                    show: { text in shownTo(Data((text + "\n").utf8)) }, clock: clock)
            }
            let watch = SignalWatch([SIGINT]) { _ in task.cancel() }
            let ran = await task.value
            watch.stop()
            try report(Result(status: ran.status.rawValue, output: ran.output, error: ran.error, runIDs: ran.runIDs))
        }

        /// Prints how the run went, and exits 1 when it failed, 130 when it was cancelled.
        func report(_ result: Result) throws {
            if json {
                AutomationListing.printJSON(result)
                switch result.status {
                case RunHistory.Status.succeeded.rawValue: return
                case RunHistory.Status.cancelled.rawValue: throw ExitCode(130)
                default: throw ExitCode(1)
                }
            }
            switch result.status {
            case RunHistory.Status.succeeded.rawValue:
                if let output = result.output, !output.isNull { print(output.displayText) }
            case RunHistory.Status.cancelled.rawValue:
                CommandOutput.current.writeError(Data("cancelled\n".utf8))
                throw ExitCode(130)
            default:
                CommandOutput.current.writeError(Data(((result.error ?? result.status) + "\n").utf8))
                throw ExitCode(1)
            }
        }

        /// Queues the run for the live daemons of a shared database and waits until one has run it;
        /// `nil` when the store is not shared or no daemon is alive (then it runs here, as said on
        /// standard error).
        static func runByDaemon(_ automation: Automation, inputs: [String: IntentValue], stores: StateStores) async throws -> Result? {
            let store = stores.automations
            guard store.isShared, let location = stores.sharedLocation else { return nil }
            let request: RunRequest
            do {
                guard try store.daemons().contains(where: \.isAlive) else {
                    CommandOutput.current.writeError(Data("no live daemon on \(location): running it here\n".utf8))
                    return nil
                }
                request = try store.enqueueRun(
                    automationKey: store.key(for: automation), inputs: inputs.isEmpty ? nil : IntentValue.dictionary(inputs).jsonText,
                    trigger: "manual")
            } catch {
                throw CommandLineError(error)
            }
            CommandOutput.current.writeError(Data("queued as request \(request.id) for the daemons on \(location)\n".utf8))
            var latest = request
            let clock = TaskClock.current
            let queuedAt = clock.now()
            var isWarned = false
            while latest.status == .queued || latest.status == .running {
                try await clock.sleep(for: .milliseconds(100))
                if !isWarned, latest.status == .queued, clock.elapsed(since: queuedAt) > .seconds(10) {
                    isWarned = true
                    CommandOutput.current.writeError(
                        Data(
                            ("no daemon has taken it yet: the live daemons may not have \(store.key(for: automation)) in their workflows folder\n"
                                + "help: run it here with --here\n").utf8))
                }
                do {
                    latest = try store.runRequest(id: request.id) ?? latest
                } catch let error as StateDatabaseError where error.isUnavailable {
                    continue
                } catch {
                    throw CommandLineError(error)
                }
            }
            let output = latest.output.flatMap { try? IntentValue.fromJSON($0) }
            let status = latest.status.rawValue
            let error = latest.status == .interrupted ? latest.error ?? "the daemon that ran it stopped before it ended" : latest.error
            return Result(status: status, output: output, error: error, runIDs: latest.runID.map { [$0] } ?? [])
        }
    }
}

/// The table (or JSON) of `shortcuts automations list` and `shortcuts list automations`.
enum AutomationListing {
    /// The names an automation answers to: its `name:`, its file name, and that without extension.
    static func names(of file: URL, name: String?) -> Set<String> {
        var names: Set<String> = [file.lastPathComponent, file.deletingPathExtension().lastPathComponent]
        if let name { names.insert(name) }
        return names
    }

    /// Prints the automations of a folder; returns `false` when some files have errors (printed to standard error).
    static func print(folder path: String, json: Bool, store source: StateStores.Source?) throws -> Bool {
        try requireFolder(path)
        let folder = AutomationFolder.load(URL(fileURLWithPath: path, isDirectory: true), catalog: Installation.shared.catalog)
        for problem in folder.problems {
            CommandOutput.current.writeError(Data((problem.rendered() + "\n").utf8))
        }
        let automations = folder.automations
        let rows: [AutomationSummary]
        do {
            rows = try folder.summaries(store: try StateStores.automations(source), history: try StateStores.history(source, readOnly: true))
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError("cannot open the automations' state: \(error)")
        }
        if json {
            printJSON(rows)
        } else if rows.isEmpty {
            if folder.problems.isEmpty { CommandOutput.current.print("No automations in \(path).\n") }
        } else {
            Table.print(
                [["NAME", "FILE", "TRIGGERS", "NEXT", "LAST RUN", "STATUS"]]
                    + zip(rows, automations).map { row, automation in
                        [
                            row.name, row.file, row.triggerPhrases.joined(separator: "; "),
                            row.next.map { format($0, in: automation.timeZone) }
                                ?? (!row.enabled ? "disabled" : row.runsAtStart ? "at daemon start" : automation.isScheduled ? "never" : "—"),
                            row.lastActivity.map { format($0.at, in: automation.timeZone) } ?? "—",
                            row.lastActivity?.status ?? "—"
                        ]
                    })
        }
        return folder.problems.isEmpty
    }

    /// Throws an error naming the folder when it does not exist or is not a folder (exit 1).
    static func requireFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandLineError("no folder '\(path)'", help: ["create it, or give the folder of workflow files with --workflows DIR"])
        }
        guard isDirectory.boolValue else {
            throw CommandLineError("'\(path)' is a file, not a folder", help: ["give the folder of workflow files with --workflows DIR"])
        }
    }

    /// Prints a value as indented JSON with sorted keys and ISO 8601 dates.
    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        CommandOutput.current.print(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self) + "\n")
    }

    static func format(_ date: Date, in zone: TimeZone) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(timeZone: zone).year().month().day()
                .time(includingFractionalSeconds: false).timeZone(separator: .colon))
    }
}

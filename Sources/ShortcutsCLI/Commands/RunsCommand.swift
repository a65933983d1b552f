import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Show the history of workflow runs and their traces.",
        discussion: """
            Runs are kept for 90 days: older runs are deleted when the history is next written, \
            at most once a day. `runs prune --older-than` deletes runs sooner. Secret values are masked as *** in \
            what runs record, and every value stored now is masked again in what these commands print.
            """,
        subcommands: [List.self, Show.self, Prune.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List recent runs, newest first.",
            discussion: """
                Columns: ID (the start of the run's id, for `runs show`), STARTED, STATUS \
                (running, succeeded, failed, cancelled, interrupted), TRIGGER (manual, automation, webhook, file, mcp), \
                DURATION, WORKFLOW. With --json: an array of runs, each with `inputs` and `output` as JSON.
                """)

        @Option(name: .long, help: "Only runs with this status: running, succeeded, failed, cancelled or interrupted.")
        var status: RunHistory.Status?

        @Option(name: .long, help: "Only runs of this workflow: its file, its file's name or its name.")
        var workflow: String?

        @Option(
            name: .long, help: "Only runs with this trigger: manual, automation, webhook, file or mcp.",
            completion: .list(["manual", "automation", "webhook", "file", "mcp"]))
        var trigger: String?

        @Option(name: .long, help: "Only runs started since then: an ISO 8601 date or time (2026-01-31), or a duration ago (7d, 12h, 30m).")
        var since: String?

        @Option(name: .long, help: "How many runs to list.")
        var limit = 20

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let since, RunTime.date(since) == nil {
                throw ValidationError("--since '\(since)' is neither an ISO 8601 date (2026-01-31) nor a duration such as 7d, 12h or 30m")
            }
            if limit < 0 { throw ValidationError("--limit must be 0 or more") }
        }

        func run() async throws {
            let filter = RunHistory.Filter(
                status: status, workflow: workflow, trigger: trigger, since: since.flatMap { RunTime.date($0) }, limit: limit)
            let runs: [RunHistory.Run]
            do {
                runs = try StateStores.history(store.source, readOnly: true)?.runs(filter) ?? []
            } catch {
                throw CommandLineError(error)
            }
            if json {
                print(SecretStore.standard().mask().mask(RunJSON.text(runs.map(RunJSON.run))))
                return
            }
            guard !runs.isEmpty else {
                let isFiltered = status != nil || workflow != nil || trigger != nil || since != nil
                print(isFiltered ? "No runs match these filters." : "No runs recorded yet.")
                return
            }
            Table.print(
                [["ID", "STARTED", "STATUS", "TRIGGER", "DURATION", "WORKFLOW"]]
                    + runs.map { run in
                        [
                            String(run.id.prefix(8)), run.startedAt.formatted(.iso8601), run.status.rawValue, run.trigger,
                            RunText.duration(from: run.startedAt, to: run.endedAt), run.name ?? run.workflow
                        ]
                    })
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one run as a tree of its steps.",
            discussion: "With --json: {run, steps}, with each `output` and step `inputs` as JSON.")

        @Argument(help: "The run's id, or the start of it; the newest run when left out.", completion: .custom(ShellCompletions.runs))
        var id: String?

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let found: (run: RunHistory.Run, steps: [RunHistory.RecordedStep])
            let command = Installation.shared.commandName
            do {
                let history = try StateStores.history(store.source, readOnly: true)
                guard let id = try id ?? history?.recentRuns(limit: 1).first?.id else {
                    throw CommandLineError("no runs yet", help: ["`\(command) run WORKFLOW` runs one, and records it"])
                }
                guard let history else { throw HistoryError.noRun(id) }
                found = try history.run(matching: id)
            } catch HistoryError.noRun(let prefix) {
                throw CommandLineError("no run '\(prefix)'", help: ["`\(command) runs list` lists recent runs"])
            } catch {
                throw CommandLineError(error)
            }
            let mask = SecretStore.standard().mask()
            if json {
                print(mask.mask(RunJSON.text(["run": RunJSON.run(found.run), "steps": found.steps.map(RunJSON.step)])))
                return
            }
            let run = found.run
            var lines = [
                "Run \(run.id)  \(run.name ?? "") (\(run.workflow))",
                "\(run.status.rawValue), started \(run.startedAt.formatted(.iso8601)), took \(RunText.duration(from: run.startedAt, to: run.endedAt)), \(run.trigger)"
            ]
            if let inputs = run.inputs { lines.append("inputs: " + RunText.compact(inputs)) }
            if let output = run.output { lines.append("output: " + RunText.compact(output)) }
            // A failed run keeps its located diagnostic ("file:line:column: error: …"), which
            // says "error" itself.
            if let error = run.error { lines.append(RunText.isDiagnostic(error) ? error : "error: " + error) }
            for step in found.steps {
                let indent = String(repeating: "  ", count: step.depth + 1)
                let mark = step.error == nil ? "✔" : "✘"
                var line = "\(indent)\(mark) \(step.file):\(step.line):\(step.column) \(step.kind)"
                if let branch = step.branch { line += " \(branch)" }
                if let id = step.stepID { line += " → \(id)" }
                line += String(format: "  %.1f ms", step.durationSeconds * 1000)
                lines.append(line)
                if step.inputs != "{\n\n}" { lines.append("\(indent)    in: " + RunText.compact(step.inputs)) }
                if let output = step.output { lines.append("\(indent)    out: " + RunText.compact(output)) }
                if let dialog = step.dialog { lines.append("\(indent)    said: " + dialog.replacingOccurrences(of: "\n", with: " / ")) }
                lines += RunText.details(step.details).map { "\(indent)    \($0)" }
                if let error = step.error {
                    lines.append("\(indent)    error: " + error.replacingOccurrences(of: "\n", with: "\n\(indent)    "))
                }
            }
            print(mask.mask(lines.joined(separator: "\n")))
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the runs (and their traces) older than a duration.",
            discussion: "Runs still running are kept. Without this, runs older than 90 days are deleted automatically.")

        @Option(name: .long, help: "A duration such as 30d, 12h or 1d12h: runs that started longer ago are deleted.")
        var olderThan: String

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard DurationSyntax.parse(olderThan) != nil else {
                throw ValidationError("--older-than '\(olderThan)' is not a duration such as 30d, 12h or 90m")
            }
        }

        func run() async throws {
            guard let cutoff = RunTime.date(olderThan) else { return }
            do {
                let isAbsent = store.source == nil && RunHistory.isAbsent
                let deleted = isAbsent ? 0 : try StateStores.history(store.source)?.prune(olderThan: cutoff) ?? 0
                print("Deleted \(deleted) \(deleted == 1 ? "run" : "runs") that started before \(cutoff.formatted(.iso8601)).")
            } catch {
                throw CommandLineError(error)
            }
        }
    }
}

extension RunHistory.Status: ExpressibleByArgument {}

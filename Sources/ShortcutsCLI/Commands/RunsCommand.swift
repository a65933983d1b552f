import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Show the history of workflow runs and their traces.",
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List recent runs, newest first.")

        @Option(name: .long, help: "How many runs to list.")
        var limit = 20

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let runs = try RunHistory.shared().recentRuns(limit: limit)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(runs), as: UTF8.self))
                return
            }
            Table.print(runs.map { run in
                [String(run.id.prefix(8)), run.startedAt.formatted(.iso8601), run.status.rawValue,
                 RunText.duration(from: run.startedAt, to: run.endedAt), run.name ?? run.workflow]
            })
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one run as a tree of its steps.")

        @Argument(help: "The run's id, or the start of it.")
        var id: String

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let found: (run: RunHistory.Run, steps: [RunHistory.RecordedStep])
            do {
                found = try RunHistory.shared().run(matching: id)
            } catch let error as HistoryError {
                Failure.exit(error)
            }
            if json {
                struct Document: Encodable {
                    var run: RunHistory.Run
                    var steps: [RunHistory.RecordedStep]
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(Document(run: found.run, steps: found.steps)), as: UTF8.self))
                return
            }
            let run = found.run
            var lines = ["Run \(run.id)  \(run.name ?? "") (\(run.workflow))",
                         "\(run.status.rawValue), started \(run.startedAt.formatted(.iso8601)), took \(RunText.duration(from: run.startedAt, to: run.endedAt)), \(run.trigger)"]
            if let output = run.output { lines.append("output: " + RunText.compact(output)) }
            if let error = run.error { lines.append("error: " + error) }
            for step in found.steps {
                let indent = String(repeating: "  ", count: step.depth + 1)
                let mark = step.error == nil ? "✔" : "✘"
                var line = "\(indent)\(mark) \(step.file):\(step.line):\(step.column) \(step.kind)"
                if let id = step.stepID { line += " → \(id)" }
                line += String(format: "  %.1f ms", step.durationSeconds * 1000)
                lines.append(line)
                if step.inputs != "{\n\n}" { lines.append("\(indent)    in: " + RunText.compact(step.inputs)) }
                if let output = step.output { lines.append("\(indent)    out: " + RunText.compact(output)) }
                if let dialog = step.dialog { lines.append("\(indent)    said: " + dialog.replacingOccurrences(of: "\n", with: " / ")) }
                if let error = step.error { lines.append("\(indent)    error: " + error) }
            }
            print(lines.joined(separator: "\n"))
        }
    }
}

enum RunText {
    static func duration(from start: Date, to end: Date?) -> String {
        guard let end else { return "—" }
        let seconds = end.timeIntervalSince(start)
        return seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    /// JSON on one line, shortened to 160 characters.
    static func compact(_ json: String) -> String {
        let oneLine = json.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return oneLine.count > 160 ? String(oneLine.prefix(157)) + "…" : oneLine
    }
}

import ArgumentParser
import Clockwork
import Cron
import Foundation
import WorkflowKit

struct CronCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cron",
        abstract: "Compute and explain cron schedules.",
        subcommands: [Next.self, Explain.self])

    /// The most fire times `cron next` prints.
    static let maximumCount = 1_000

    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the next fire times of a cron expression, one ISO 8601 timestamp per line.",
            discussion: """
                Times are strictly after --from, in --time-zone, with the DST rules of Vixie cron (see README).
                A schedule that never fires is an error (exit 1), as in `shortcuts validate`; @reboot runs at start.
                JSON: {"expression", "timeZone", "runsAtStart", "fireTimes": [ISO 8601 strings]}.
                """)

        @Argument(help: "The expression: 5 fields, 6 with seconds, or a macro such as @daily.")
        var expression: String

        @Option(name: .long, help: "How many fire times to print, 1 to \(CronCommand.maximumCount).")
        var count = 5

        @Option(name: .long, help: "Start after this instant (ISO 8601; default: now).")
        var from: String?

        @Option(name: .long, help: "An IANA time zone such as Europe/Paris (default: the system's).")
        var timeZone: String?

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func validate() throws {
            guard (1...CronCommand.maximumCount).contains(count) else {
                throw ValidationError("--count must be between 1 and \(CronCommand.maximumCount), not \(count)")
            }
        }

        func run() async throws {
            var zone = TimeZone.current
            if let timeZone {
                guard let named = TimeZone(identifier: timeZone) else {
                    throw ValidationError("unknown time zone '\(timeZone)': use an IANA name such as Europe/Paris")
                }
                zone = named
            }
            var start = TaskClock.current.now()
            if let from {
                guard let date = try? Date(from, strategy: .iso8601) else {
                    throw ValidationError("--from '\(from)' is not an ISO 8601 instant such as 2026-03-08T00:00:00Z")
                }
                start = date
            }
            let cron = try checkedCron(expression, in: zone, from: start)
            var style = Date.ISO8601FormatStyle(timeZone: zone)
            style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
            let times = cron.nextDates(after: start, in: zone).prefix(count).map { $0.formatted(style) }
            if json {
                printJSON(
                    NextTimes(expression: cron.description, timeZone: timeZone ?? zone.shownName, runsAtStart: cron.runsAtStart, fireTimes: times))
            } else if cron.runsAtStart {
                print("\(cron.description): runs once at start, each time the daemon starts")
            } else {
                for time in times { print(time) }
            }
        }
    }

    struct Explain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a cron expression in words.",
            discussion: """
                A schedule that never fires is an error (exit 1).
                JSON: {"expression", "explanation", "runsAtStart", "hasSeconds", "isFixedTime"}.
                """)

        @Argument(help: "The expression.")
        var expression: String

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let cron = try checkedCron(expression, in: .current, from: TaskClock.current.now())
            if json {
                printJSON(
                    Explanation(
                        expression: cron.description, explanation: cron.explanation, runsAtStart: cron.runsAtStart,
                        hasSeconds: cron.hasSeconds, isFixedTime: cron.isFixedTime))
            } else {
                print(cron.explanation)
            }
        }
    }

    struct NextTimes: Encodable {
        var expression: String
        var timeZone: String
        var runsAtStart: Bool
        var fireTimes: [String]
    }

    struct Explanation: Encodable {
        var expression: String
        var explanation: String
        var runsAtStart: Bool
        var hasSeconds: Bool
        var isFixedTime: Bool
    }
}

/// Parses an expression and checks that it fires, with the messages of `shortcuts validate`;
/// a mistake is thrown drawn with a caret under the field (exit 1).
private func checkedCron(_ expression: String, in zone: TimeZone, from start: Date) throws -> CronExpression {
    let schedule = Located(expression, at: SourceLocation(file: "", line: 1, column: 1))
    if let problem = WorkflowValidator.scheduleDiagnostics(for: schedule, in: zone, now: start).first {
        let leading = expression.prefix { $0 == " " || $0 == "\t" }.count
        let column = max(problem.location.column - 1, leading)
        let length = problem.location.length ?? max(expression.trimmingCharacters(in: .whitespaces).count, 1)
        var text = "error: \(problem.message)\n  \(expression)\n"
        text += "  " + CaretLine.draw(under: expression, columns: column..<column + max(length, 1))
        if let help = problem.help { text += "\nhelp: \(help)" }
        throw CommandLineError(rendered: text)
    }
    return try CronExpression(expression)
}

private func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self))
}

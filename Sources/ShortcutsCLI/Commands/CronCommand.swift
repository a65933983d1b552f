import ArgumentParser
import AutomationKit
import Cron
import Foundation

struct CronCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cron",
        abstract: "Compute and explain cron schedules.",
        subcommands: [Next.self, Explain.self])

    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the next fire times of a cron expression, one ISO 8601 timestamp per line.",
            discussion: "Times are strictly after --from, in --time-zone, with the DST rules of Vixie cron (see README).")

        @Argument(help: "The expression: 5 fields, 6 with seconds, or a macro such as @daily.")
        var expression: String

        @Option(name: .long, help: "How many fire times to print.")
        var count = 5

        @Option(name: .long, help: "Start after this instant (ISO 8601; default: now).")
        var from: String?

        @Option(name: .long, help: "An IANA time zone such as Europe/Paris (default: the system's).")
        var timeZone: String?

        func run() async throws {
            let cron = try parseCron(expression)
            guard count > 0 else { throw ValidationError("--count must be at least 1") }
            var zone = TimeZone.current
            if let timeZone {
                guard let named = TimeZone(identifier: timeZone) else {
                    throw ValidationError("unknown time zone '\(timeZone)': use an IANA name such as Europe/Paris")
                }
                zone = named
            }
            var start = Date()
            if let from {
                guard let date = try? Date(from, strategy: .iso8601) else {
                    throw ValidationError("--from '\(from)' is not an ISO 8601 instant such as 2026-03-08T00:00:00Z")
                }
                start = date
            }
            var style = Date.ISO8601FormatStyle(timeZone: zone)
            style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
            for date in cron.nextDates(after: start, in: zone).prefix(count) {
                print(date.formatted(style))
            }
        }
    }

    struct Explain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Describe a cron expression in words.")

        @Argument(help: "The expression.")
        var expression: String

        func run() async throws {
            print(try parseCron(expression).explanation)
        }
    }
}

/// Parses an expression, or prints its error with a caret under the mistake and exits 1.
private func parseCron(_ expression: String) throws -> CronExpression {
    do {
        return try CronExpression(expression)
    } catch {
        let caret = String(repeating: " ", count: max(error.column - 1, 0) + 2) + "^"
        FileHandle.standardError.write(Data("error: \(error)\n  \(expression)\n\(caret)\n".utf8))
        Foundation.exit(1)
    }
}

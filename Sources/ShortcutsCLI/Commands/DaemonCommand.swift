import ArgumentParser
import AutomationKit
import Foundation
import WorkflowKit

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the automations of a folder of workflows until stopped.",
        discussion: """
            Every workflow file with an automation: block runs on its schedule, headless, recorded in the run history \
            (shortcuts runs list). Edits to the folder are picked up as they happen; files with errors are reported \
            and skipped. State: $SHORTCUTS_HOME/automations.sqlite (claimed due times), runs.sqlite (runs), daemons/ \
            (one lock file per running daemon). SIGTERM or Ctrl-C stops it: running workflows get the grace period, \
            then are cancelled; a second signal cancels them at once. Exit 0 once stopped.
            Example: shortcuts daemon --workflows /srv/shortcuts/Workflows --grace 30s
            """)

    @Option(name: .long, help: ArgumentHelp("The folder of workflow files.", valueName: "dir"))
    var workflows = "Workflows"

    @Option(name: .long, help: ArgumentHelp("How long running workflows may go on after SIGTERM or Ctrl-C, such as 10s or 1m.", valueName: "duration"))
    var grace = "10s"

    @OptionGroup var locale: LocaleOptions

    func validate() throws {
        guard DurationSyntax.parse(grace) != nil else {
            throw ValidationError("--grace '\(grace)' is not a duration such as 10s, 1m or 500ms")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workflows, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("no workflows folder '\(workflows)'; pass --workflows DIR")
        }
    }

    func run() async throws {
        let configuration = AutomationDaemon.Configuration(
            workflows: URL(fileURLWithPath: workflows, isDirectory: true), catalog: Installation.shared.catalog,
            grace: DurationSyntax.parse(grace) ?? .seconds(10), locale: locale.resolvedLocale)
        let daemon = AutomationDaemon(configuration, log: DaemonLog.write)
        let watch = SignalWatch([SIGTERM, SIGINT]) { number in
            DaemonLog.write("received \(number == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
            daemon.requestStop()
        }
        do {
            try await daemon.run()
        } catch {
            Failure.exit(error)
        }
        watch.stop()
    }
}

/// The daemon's log: one line per event on standard error, each starting with the time.
enum DaemonLog {
    private static let lock = NSLock()

    @Sendable static func write(_ message: String) {
        let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let text = message.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { $0.offset == 0 ? "\(time) \($0.element)" : $0.element.isEmpty ? "" : "  \($0.element)" }
            .joined(separator: "\n")
        lock.withLock { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    }
}

import ArgumentParser
import Foundation
import IntentKit
import Logging
import WorkflowKit

/// `--log-level` and `--log-format`: how a long-running command (`daemon`, `serve`) writes its
/// records to standard error.
struct LogOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The least important records logged: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    @Option(name: .long, help: "How records are written to standard error, one line each: text or json.")
    var logFormat = DaemonLogHandler.Format.text

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level '\(logLevel)' is not one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// A logger that writes one line per record to standard error (without a time of its own
    /// under journald), with the stored secrets' values masked.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - secrets: The secrets whose values are masked, read again for each record.
    func logger(label: String, masking secrets: SecretStore?) -> Logger {
        let handler = DaemonLogHandler(
            level: Logger.Level(rawValue: logLevel) ?? .info, format: logFormat,
            isJournal: ProcessEnvironment.current["JOURNAL_STREAM"] != nil, mask: { secrets?.mask() ?? .none })
        return Logger(label: label) { _ in handler }
    }
}

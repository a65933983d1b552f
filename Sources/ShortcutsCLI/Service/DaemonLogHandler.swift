import ArgumentParser
import Clockwork
import Foundation
import Logging
import WorkflowKit

/// The daemon's log records on standard error, one line per record, as text or JSON.
///
/// Text: `2026-03-08T09:00:00.123Z info Tick: run 1f3a2c9e succeeded in 12 ms`. A record of
/// several lines (a located error) keeps its line breaks as `\n`, so that each record stays one
/// line for `grep` and for journald. Under journald (`JOURNAL_STREAM` set) the time is left out,
/// since the journal records it, and each line starts with its syslog priority (`<6>`), which
/// journald reads as the record's level.
///
/// JSON: `{"level":"info","message":"…","time":"…"}` with the record's metadata as further keys.
///
/// Every stored secret's value is masked as `***` in the message and the metadata, whatever
/// logged it (runs mask what they show and their errors already; this also covers any other
/// record).
///
/// ```swift
/// LoggingSystem.bootstrap { _ in DaemonLogHandler(level: .info, format: .text, isJournal: false) }
/// ```
struct DaemonLogHandler: LogHandler {
    enum Format: String, CaseIterable, Sendable, ExpressibleByArgument {
        case text, json
    }

    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let format: Format
    /// Whether journald captures standard error: no time of our own, a syslog priority prefix.
    let isJournal: Bool
    let write: @Sendable (String) -> Void
    /// What hides secret values; read for each record, so secrets stored while the daemon
    /// runs are masked too.
    let mask: @Sendable () -> SecretMask

    init(
        level: Logger.Level, format: Format, isJournal: Bool, mask: @escaping @Sendable () -> SecretMask = { .none },
        write: @escaping @Sendable (String) -> Void = DaemonLogHandler.standardError
    ) {
        logLevel = level
        self.format = format
        self.isJournal = isJournal
        self.mask = mask
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(
            line(
                level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 },
                time: TaskClock.current.now()))
    }

    /// One record as one line, without the line break.
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata, time: Date) -> String {
        let mask = self.mask()
        let message = mask.mask(message)
        let metadata = mask.isEmpty ? metadata : metadata.mapValues { Logger.MetadataValue.string(mask.mask("\($0)")) }
        switch format {
        case .text:
            var line = isJournal ? "<\(Self.syslogPriority(level))>" : time.formatted(Self.timeStyle) + " "
            line += "\(level) " + message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            if !metadata.isEmpty {
                line += " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            return line
        case .json:
            var object: [String: String] = metadata.mapValues { "\($0)" }
            object["level"] = level.rawValue
            object["message"] = message
            if !isJournal { object["time"] = time.formatted(Self.timeStyle) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
            return isJournal ? "<\(Self.syslogPriority(level))>" + json : json
        }
    }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let lock = NSLock()

    @Sendable static func standardError(_ line: String) {
        lock.withLock { CommandOutput.current.writeError(Data((line + "\n").utf8)) }
    }

    /// The syslog priority journald reads from a `<N>` prefix.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}

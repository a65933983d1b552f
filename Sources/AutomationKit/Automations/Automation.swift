import Cron
import Foundation
import IntentKit
import WorkflowKit

/// A workflow file with a valid `automation:` block: when it runs, and how.
///
/// An automation has one or more triggers: a cron ``schedule`` (the daemon claims and runs
/// its due times), a ``webhook`` (a web server runs it on a request to `/hooks/NAME`) and a
/// ``watch`` of a folder (the daemon runs it when files change there).
///
/// An automation is identified by its file's absolute path (its ``key``): the daemon's
/// records survive restarts and edits of the file, and two daemons reading the same folder
/// agree on which automation a due time belongs to. Renaming or moving the file makes a new
/// automation.
///
/// An automation is small, immutable and shared: a daemon holds thousands of them. It keeps
/// what scheduling needs, not the workflow's steps; ``loadWorkflow(catalog:)`` reads and
/// validates the file again when it is time to run it.
///
/// ```swift
/// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// for automation in folder.automations where automation.isScheduled {
///     print(automation.name, automation.nextDueTime(after: .now) ?? "never")
/// }
/// ```
public final class Automation: Sendable {
    /// The file's absolute, standardized path: what the daemon's records are keyed by.
    public let key: String
    /// The file's path as the folder was given (relative when it was), as in diagnostics.
    public let fileName: String
    /// The workflow's `name:`, else its file name without extension.
    public let name: String
    /// `schedule:` as written, such as `0 9 * * MON-FRI`, or `nil` without a schedule.
    public let scheduleText: String?
    /// The zone of the schedule: `timeZone:`, else the system's.
    public let timeZone: TimeZone
    /// Whether `timeZone:` is written (rather than the system's zone being used).
    public let hasExplicitTimeZone: Bool
    /// `overlap:`; ``AutomationBlock/Overlap/skip`` by default.
    public let overlap: AutomationBlock.Overlap
    /// `catchUp:`; ``AutomationBlock/CatchUp/skipMissed`` by default.
    public let catchUp: AutomationBlock.CatchUp
    /// `timeout:` of each attempt, or `nil` for none.
    public let timeout: Duration?
    /// `retry: { attempts }`: how many attempts in all; 1 without `retry:`.
    public let attempts: Int
    /// `retry: { backoff }`: the wait between attempts, or `nil` to retry at once.
    public let backoff: Duration?
    /// Whether the automation's triggers are active (`enabled:` is not `false`).
    public let isEnabled: Bool
    /// `webhook:`: its name, secret and rate, or `nil` when it has none.
    public let webhook: AutomationBlock.Webhook?
    /// `watch:`: its events, pattern and quiet time, or `nil` when it has none.
    public let watch: AutomationBlock.Watch?
    /// The folder `watch:` names, as an absolute path, or `nil` without `watch:`.
    public let watchedFolder: URL?
    /// The parsed schedule.
    private let compiledSchedule: CronExpression?

    /// Describes a workflow whose `automation:` block was validated.
    ///
    /// - Returns: `nil` when the workflow has no block or its schedule or zone is invalid.
    init?(workflow: Workflow, file: URL) {
        guard let settings = workflow.automation else { return nil }
        var schedule: CronExpression?
        if let written = settings.schedule {
            guard let parsed = try? CronExpression(written.value) else { return nil }
            schedule = parsed
        }
        let zone = settings.timeZone.map { TimeZoneCache.shared.zone(named: $0.value) } ?? TimeZone.current
        guard let zone else { return nil }
        let key = Self.key(for: file)
        // One string for both when the folder was given as an absolute path (the usual case for a daemon).
        self.key = key == workflow.fileName ? workflow.fileName : key
        fileName = workflow.fileName
        name = workflow.name?.value ?? file.deletingPathExtension().lastPathComponent
        scheduleText = schedule?.description
        timeZone = zone
        hasExplicitTimeZone = settings.timeZone != nil
        overlap = settings.overlap
        catchUp = settings.catchUp
        timeout = settings.timeout?.value
        attempts = settings.retry?.attempts ?? 1
        backoff = settings.retry?.backoff
        isEnabled = settings.isEnabled
        webhook = settings.webhook
        watch = settings.watch
        watchedFolder = settings.watch?.folder(relativeTo: file.standardizedFileURL.path)
        compiledSchedule = schedule
    }

    /// The workflow file.
    public var file: URL { URL(fileURLWithPath: fileName) }

    /// The file's path relative to the workflows folder (its name, since automations are read
    /// from the folder itself, not its subfolders): how every machine that deploys the same
    /// folder names the automation in a shared store (``AutomationStore/key(for:)``).
    ///
    /// ```swift
    /// print(automation.relativePath)   // report.yaml
    /// ```
    public var relativePath: String { file.lastPathComponent }

    /// The parsed `schedule:`, or `nil` when the automation runs only on its other triggers.
    public var schedule: CronExpression? { compiledSchedule }

    /// Whether it has a `schedule:`, whose due times the daemon claims and runs.
    public var isScheduled: Bool { compiledSchedule != nil }

    /// Its triggers as the run history names what started a run: `schedule` (recorded as
    /// `automation`), `webhook` and `file`, in that order.
    ///
    /// ```swift
    /// automation.triggers   // [.schedule, .webhook]
    /// ```
    public var triggers: [Trigger] {
        (isScheduled ? [.schedule] : []) + (webhook != nil ? [.webhook] : []) + (watch != nil ? [.file] : [])
    }

    /// What starts an automation's runs.
    public enum Trigger: String, Sendable, Hashable, CaseIterable {
        /// Its `schedule:`; the run history records these runs with the trigger `automation`.
        case schedule
        /// A request to its `webhook:`.
        case webhook
        /// A file event of its `watch:`.
        case file

        /// The trigger the run history records for these runs.
        public var recordedName: String { self == .schedule ? "automation" : rawValue }
    }

    /// The first due time strictly after a date, in the automation's time zone.
    ///
    /// ```swift
    /// let next = automation.nextDueTime(after: .now)
    /// ```
    ///
    /// - Parameter date: The instant to search from.
    /// - Returns: The due time, or `nil` when the schedule never fires again or there is none.
    public func nextDueTime(after date: Date) -> Date? {
        compiledSchedule?.nextDate(after: date, in: timeZone)
    }

    /// Reads the workflow file again and validates it as an automation.
    ///
    /// ```swift
    /// let workflow = try automation.loadWorkflow(catalog: catalog)
    /// ```
    ///
    /// - Parameter catalog: The installed apps.
    /// - Returns: The workflow.
    /// - Throws: ``DiagnosticError`` with every problem, when the file no longer loads or validates.
    public func loadWorkflow(catalog: IntentCatalog) throws(DiagnosticError) -> Workflow {
        let workflow = try WorkflowLoader.load(contentsOf: file)
        let (diagnostics, sources) = WorkflowValidator(catalog: catalog).check(workflow)
        guard diagnostics.isEmpty else { throw DiagnosticError(diagnostics, sources: sources) }
        return workflow
    }

    /// The key of a workflow file: its absolute path with symbolic links resolved.
    static func key(for file: URL) -> String {
        file.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// What, if it changes, makes past due times meaningless for catch-up: the schedule and zone.
    var definition: String {
        "\(scheduleText ?? "") \(timeZone.identifier)"
    }
}

/// One `TimeZone` value per identifier, so that thousands of automations share them.
final class TimeZoneCache: @unchecked Sendable {
    static let shared = TimeZoneCache()
    private let lock = NSLock()
    private var zones: [String: TimeZone] = [:]

    func zone(named identifier: String) -> TimeZone? {
        lock.withLock {
            if let zone = zones[identifier] { return zone }
            let zone = TimeZone(identifier: identifier)
            zones[identifier] = zone
            return zone
        }
    }
}

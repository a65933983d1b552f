import Foundation
import WorkflowKit

/// A workflow with a valid `automation:` block, ready to schedule.
///
/// An automation is identified by its file's absolute path (its ``key``): the daemon's
/// records survive restarts and edits of the file, and two daemons reading the same folder
/// agree on which automation a due time belongs to. Renaming or moving the file makes a new
/// automation.
///
/// ```swift
/// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// for automation in folder.automations {
///     print(automation.name, automation.nextDueTime(after: .now) ?? "never")
/// }
/// ```
public struct Automation: Sendable {
    /// The file's absolute, standardized path: what the daemon's records are keyed by.
    public var key: String
    /// The workflow file.
    public var file: URL
    /// The loaded, valid workflow.
    public var workflow: Workflow
    /// The parsed `schedule:`.
    public var schedule: CronExpression
    /// The zone of the schedule: `timeZone:`, else the system's.
    public var timeZone: TimeZone
    /// The `automation:` block as written (overlap, catch-up, timeout, retry, enabled).
    public var settings: AutomationBlock

    /// The workflow's `name:`, else its file name without extension.
    ///
    /// ```swift
    /// automation.name  // "Nightly report", or "nightly-report" without a name:
    /// ```
    public var name: String {
        workflow.name?.value ?? file.deletingPathExtension().lastPathComponent
    }

    /// Whether the automation is scheduled (`enabled:` is not `false`).
    public var isEnabled: Bool { settings.isEnabled }

    /// The first due time strictly after a date, in the automation's time zone.
    ///
    /// ```swift
    /// let next = automation.nextDueTime(after: .now)
    /// ```
    ///
    /// - Parameter date: The instant to search from.
    /// - Returns: The due time, or `nil` when the schedule never fires again.
    public func nextDueTime(after date: Date) -> Date? {
        schedule.nextDate(after: date, in: timeZone)
    }

    /// Builds an automation from a workflow whose block was validated.
    init?(workflow: Workflow, file: URL) {
        guard let settings = workflow.automation,
              let schedule = try? CronExpression(settings.schedule.value) else { return nil }
        let zone = settings.timeZone.map { TimeZoneCache.shared.zone(named: $0.value) } ?? TimeZone.current
        guard let zone else { return nil }
        self.key = Self.key(for: file)
        self.file = file
        self.workflow = workflow
        self.schedule = schedule
        self.timeZone = zone
        self.settings = settings
    }

    /// The key of a workflow file: its absolute path with symbolic links resolved.
    static func key(for file: URL) -> String {
        file.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// What, if it changes, makes past due times meaningless for catch-up: the schedule and zone.
    var definition: String {
        "\(schedule.description) \(timeZone.identifier)"
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

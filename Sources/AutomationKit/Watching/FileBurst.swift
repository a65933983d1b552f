import Clockwork
import Foundation
import WorkflowKit

/// What happened to one file, as a watcher sees it.
enum FileChange: Sendable, Equatable {
    /// It appeared: created, or moved into the folder (`IN_CREATE`, `IN_MOVED_TO`).
    case created
    /// It was written to (`IN_MODIFY`): a writer has it open.
    case written
    /// A writer closed it (`IN_CLOSE_WRITE`), or its size or time changed (polling).
    case modified
    /// It went away: deleted, or moved out of the folder (`IN_DELETE`, `IN_MOVED_FROM`).
    case deleted
    /// A process opened it (`IN_OPEN`).
    case opened
    /// A process that did not write closed it (`IN_CLOSE_NOWRITE`).
    case closedUnwritten

    /// Whether it changes the file (rather than only opening or closing it): a burst starts only with one.
    var isChange: Bool { self != .opened && self != .closedUnwritten }
}

/// The events of one file since its last quiet time, summed up as one event.
///
/// A burst's event is the net change from before its first event to after its last:
///
/// | the file before | after  | event      | such as                          |
/// |-----------------|--------|------------|----------------------------------|
/// | absent          | there  | `created`  | created then written             |
/// | there           | there  | `modified` | written, or deleted and recreated|
/// | there           | absent | `deleted`  | written then deleted             |
/// | absent          | absent | none       | a temporary file, come and gone  |
///
/// A burst ends when the file has been quiet for the debounce time and no process has it
/// open for writing (so a file still being written runs once, when written); a writer that
/// keeps it open ends it after ``stalledWriteLimit`` of quiet.
///
/// ```swift
/// var burst = FileBurst(.created, at: clock.now())
/// burst.apply(.written, at: clock.now())
/// burst.apply(.modified, at: clock.now())   // closed after writing
/// burst.event                          // .created
/// ```
struct FileBurst {
    /// Whether the file existed before the burst: its first change was not its appearance.
    let existedBefore: Bool
    /// Whether the file exists after the latest change.
    private(set) var existsNow: Bool
    /// The last event of the file, a change or not.
    private(set) var lastActivity: Date
    /// How many opens of the file seen in the burst are not closed yet.
    private(set) var openCount = 0
    /// Whether it was written to since it was last closed after writing.
    private(set) var isWriting = false
    /// When the earliest check of the burst's end is scheduled, if one is.
    var checkAt: Date?

    /// How long a file kept open for writing must be quiet before its burst ends anyway.
    static let stalledWriteLimit = Duration.seconds(60)

    init(_ first: FileChange, at time: Date) {
        existedBefore = first != .created
        existsNow = first != .deleted
        lastActivity = time
        apply(first, at: time)
    }

    mutating func apply(_ change: FileChange, at time: Date) {
        lastActivity = time
        switch change {
        case .created:
            existsNow = true
        case .written:
            existsNow = true
            isWriting = true
        case .modified:
            existsNow = true
            isWriting = false
            openCount = max(0, openCount - 1)
        case .deleted:
            existsNow = false
            isWriting = false
            openCount = 0
        case .opened:
            openCount += 1
        case .closedUnwritten:
            openCount = max(0, openCount - 1)
        }
    }

    /// The burst's net event, or `nil` for a file that came and went within it.
    var event: AutomationBlock.FileEvent? {
        switch (existedBefore, existsNow) {
        case (false, true): .created
        case (true, true): .modified
        case (true, false): .deleted
        case (false, false): nil
        }
    }

    /// When the burst ends, if nothing else happens: after the quiet time, or, while a
    /// process has the file open, after the longer of the quiet time and ``stalledWriteLimit``.
    func end(debounce: Duration) -> Date {
        let isBusy = existsNow && (openCount > 0 || isWriting)
        let quiet = isBusy ? max(debounce, Self.stalledWriteLimit) : debounce
        return lastActivity.adding(quiet)
    }
}

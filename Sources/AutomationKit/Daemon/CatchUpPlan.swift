import Foundation
import WorkflowKit

/// What to do about the due times that passed while no daemon ran (`catchUp:`).
///
/// The missed due times are those after the automation's cursor (its latest claimed due time,
/// or when it was first scheduled) and at least ``lateness`` before now. Younger ones are not
/// missed, only late: they run as usual, so that a daemon starting beside a live one does not
/// take the due time that one is about to claim.
///
/// - `none`: nothing runs; the latest missed due time is recorded as `missed`.
/// - `latest`: the latest missed due time runs.
/// - `all`: every missed due time runs, oldest first, one after another; at most ``limit``
///   of them (the most recent), the older ones are dropped.
///
/// ```swift
/// let plan = CatchUpPlan(policy: .latest, after: cursor, now: .now) { automation.nextDueTime(after: $0) }
/// for due in plan.runs { claim(due, catchUp: true) }
/// ```
struct CatchUpPlan: Equatable {
    /// Due times younger than this are late, not missed.
    static let lateness: TimeInterval = 1
    /// The most catch-up runs `all` starts for one automation.
    static let limit = 100

    /// The missed due times to run, oldest first.
    var runs: [Date]
    /// The latest missed due time to record as `missed` (`catchUp: none`).
    var missed: Date?
    /// How many due times were missed in all.
    var missedCount: Int
    /// Whether ``missedCount`` is exact, or only a lower bound (many missed times).
    var isCountExact: Bool
    /// The instant after which due times are scheduled as usual.
    var resume: Date

    /// Plans the catch-up of one automation.
    ///
    /// - Parameters:
    ///   - policy: The automation's `catchUp:`.
    ///   - cursor: The instant after which due times are the daemon's business.
    ///   - now: The current instant.
    ///   - nextDueTime: The automation's schedule: the first due time strictly after a date.
    init(policy: AutomationBlock.CatchUp, after cursor: Date, now: Date, nextDueTime: (Date) -> Date?) {
        let upper = now.addingTimeInterval(-Self.lateness)
        resume = max(cursor, upper)
        let wanted =
            switch policy {
            case .all: Self.limit
            case .latest, .skipMissed: 1
            }
        let latest = Self.latestDueTimes(wanted, after: cursor, upTo: upper, nextDueTime: nextDueTime)
        missedCount = latest.count
        isCountExact = latest.isCountExact
        switch policy {
        case .skipMissed:
            runs = []
            missed = latest.times.last
        case .latest, .all:
            runs = latest.times
            missed = nil
        }
    }

    /// A note for the first claim of the plan, such as `catch-up: the latest of 5 missed due times`.
    var note: String? {
        guard missedCount > 0 else { return nil }
        let count = isCountExact ? "\(missedCount)" : "more than \(missedCount)"
        let times = missedCount == 1 && isCountExact ? "due time" : "due times"
        if missed != nil { return "\(count) \(times) missed while no daemon ran (catchUp: none)" }
        if runs.count == 1 { return "catch-up: the latest of \(count) missed \(times)" }
        let dropped = isCountExact ? missedCount - runs.count : 0
        return "catch-up: \(runs.count) missed due times run in order"
            + (dropped > 0 || !isCountExact
                ? "; \(isCountExact ? "\(dropped)" : "more") older ones dropped (at most \(Self.limit) catch-up runs)" : "")
    }

    /// How many missed due times are counted exactly before the count becomes a lower bound.
    static let countingBudget = 1_000

    /// The latest `wanted` due times in `(lower, upper]`, and how many there are in all.
    ///
    /// Walking forward from `lower` could take millions of steps (an every-second schedule
    /// after a week down), so the walk counts at most ``countingBudget`` due times; past that,
    /// a second walk starts a minute before `upper` and widens sixteenfold until it finds
    /// `wanted` times, and the count is a lower bound.
    static func latestDueTimes(
        _ wanted: Int, after lower: Date, upTo upper: Date,
        nextDueTime: (Date) -> Date?
    ) -> (times: [Date], count: Int, isCountExact: Bool) {
        guard upper > lower else { return ([], 0, true) }
        func walk(from start: Date, budget: Int) -> (times: [Date], count: Int, isComplete: Bool) {
            var times: [Date] = []
            var count = 0
            var cursor = start
            while let due = nextDueTime(cursor), due <= upper {
                guard count < budget else { return (times, count, false) }
                count += 1
                times.append(due)
                if times.count > wanted { times.removeFirst() }
                cursor = due
            }
            return (times, count, true)
        }
        let counted = walk(from: lower, budget: Self.countingBudget)
        if counted.isComplete { return (counted.times, counted.count, true) }
        var span: TimeInterval = 60
        while true {
            let start = max(lower, upper.addingTimeInterval(-span))
            let latest = walk(from: start, budget: .max)
            if latest.times.count >= wanted || start == lower { return (latest.times, counted.count, false) }
            span *= 16
        }
    }
}

/// What a due time does when it comes, given the automation's runs in this daemon (`overlap:`).
///
/// ```swift
/// switch OverlapDecision(policy: .skip, isSequentialCatchUp: false, running: 1, queued: 0) {
/// case .start(let replacing): ...
/// case .queue: ...
/// case .skip(let reason): ...
/// }
/// ```
enum OverlapDecision: Equatable {
    /// Start now; when `replacing`, cancel the automation's other runs first.
    case start(replacing: Bool)
    /// Wait for the automation's runs before it to end.
    case queue
    /// Do not run it.
    case skip(reason: String)

    /// The most due times waiting for one automation (`overlap: queue`).
    static let queueLimit = 100

    /// Decides.
    ///
    /// - Parameters:
    ///   - policy: The automation's `overlap:`.
    ///   - isSequentialCatchUp: Whether the due time is one of several missed ones that
    ///     `catchUp: all` runs one after another, whatever the overlap policy.
    ///   - running: How many runs of the automation are going (or waiting to retry).
    ///   - queued: How many due times of the automation are waiting.
    init(policy: AutomationBlock.Overlap, isSequentialCatchUp: Bool, running: Int, queued: Int) {
        let busy = running + queued > 0
        if isSequentialCatchUp {
            self = busy ? .queue : .start(replacing: false)
            return
        }
        switch policy {
        case .skip:
            self = busy ? .skip(reason: "the previous run was still going (overlap: skip)") : .start(replacing: false)
        case .queue:
            if !busy {
                self = .start(replacing: false)
            } else if queued < Self.queueLimit {
                self = .queue
            } else {
                self = .skip(reason: "\(Self.queueLimit) due times were already waiting (overlap: queue)")
            }
        case .parallel:
            self = .start(replacing: false)
        case .replace:
            self = .start(replacing: busy)
        }
    }
}

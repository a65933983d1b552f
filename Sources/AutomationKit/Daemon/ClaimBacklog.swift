import Foundation

/// The due times a daemon could not claim because the database could not be reached: per
/// automation, the earliest and the latest of them, and when to try again.
///
/// Nothing is claimed while the database is away, and nothing is forgotten either: once a
/// try goes through, each automation's backlog becomes a ``CatchUpPlan`` from its earliest
/// due time, so that `catchUp:` decides what runs (`all`, `latest`, `none`), as after a
/// restart. Tries follow ``RetryBackoff``.
///
/// ```swift
/// var backlog = ClaimBacklog()
/// backlog.add(key: "report.yaml", dueTime: due, now: .now)
/// if let retry = backlog.retryAt, retry <= .now { let items = backlog.take() … }
/// ```
struct ClaimBacklog {
    /// The due times of one automation not claimed yet.
    struct Item: Equatable {
        var earliest: Date
        var latest: Date
    }

    private(set) var items: [String: Item] = [:]
    /// When to try again; `nil` when the backlog is empty.
    private(set) var retryAt: Date?
    private var backoff = RetryBackoff()

    var isEmpty: Bool { items.isEmpty }

    /// Whether an automation has due times waiting: its later due times join them rather than
    /// being claimed on their own, so that they are claimed in order.
    func contains(_ key: String) -> Bool { items[key] != nil }

    /// Adds an unclaimed due time.
    mutating func add(key: String, dueTime: Date) {
        if var item = items[key] {
            item.earliest = min(item.earliest, dueTime)
            item.latest = max(item.latest, dueTime)
            items[key] = item
        } else {
            items[key] = Item(earliest: dueTime, latest: dueTime)
        }
    }

    /// Records a failed try at `now`: the next one is after the backoff (unless one is set).
    mutating func failed(now: Date) {
        if retryAt == nil { retryAt = now.addingTimeInterval(backoff.failed()) }
    }

    /// Takes every item out to try them; put them back with ``add(key:dueTime:)`` and
    /// ``failed(now:)`` when the try fails.
    mutating func take() -> [String: Item] {
        defer {
            items = [:]
            retryAt = nil
        }
        return items
    }

    /// Records a try that went through.
    mutating func succeeded() {
        backoff.succeeded()
        if items.isEmpty { retryAt = nil }
    }

    /// Makes the next try due at once (the database answered again).
    mutating func retryNow() {
        if !items.isEmpty { retryAt = .distantPast }
    }

    /// Forgets an automation (deleted, disabled, or rescheduled from now).
    mutating func remove(_ key: String) {
        items[key] = nil
        if items.isEmpty { retryAt = nil }
    }
}

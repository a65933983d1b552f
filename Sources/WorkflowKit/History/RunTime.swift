import Clockwork
import Foundation
import IntentKit

/// The times that filters of the run history are written in: an ISO 8601 date or time
/// (`2026-01-31`, `2026-01-31T09:00:00Z`), or a duration ago (`7d`, `12h`, `30m`).
///
/// ```swift
/// let since = RunTime.date("7d")            // a week ago
/// let day = RunTime.date("2026-01-31")      // midnight UTC
/// ```
package enum RunTime {
    /// The date a text stands for, or `nil` when it is neither an ISO 8601 date or time nor a
    /// duration; a duration counts back from `now`, the task's clock's by default.
    package static func date(_ text: String, now: Date? = nil) -> Date? {
        if let duration = DurationSyntax.parse(text) {
            return (now ?? TaskClock.current.now()).addingTimeInterval(-duration.timeInterval)
        }
        return DateText.parse(text)
    }
}

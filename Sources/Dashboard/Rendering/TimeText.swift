import Clockwork
import Foundation
import WorkflowKit

/// Times and durations as the pages show them: `2026-03-08 09:00:05` in the configured zone,
/// with the ISO 8601 instant for `<time datetime>`.
///
/// ```swift
/// let text = TimeText(zone: .current, clock: .system)
/// text.shown(date)       // "2026-03-08 09:00:05"
/// text.duration(1.234)   // "1.23 s"
/// ```
struct TimeText: Sendable {
    var zone: TimeZone
    /// What relative times (`7d`) count back from.
    var clock: any EngineClock = .system

    /// The date and time, to the second.
    func shown(_ date: Date) -> String {
        date.formatted(
            Date.VerbatimFormatStyle(
                format:
                    "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
                timeZone: zone, calendar: Calendar(identifier: .gregorian)))
    }

    /// The day alone: `2026-03-08`.
    func day(_ date: Date) -> String {
        date.formatted(
            Date.VerbatimFormatStyle(
                format: "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits)", timeZone: zone,
                calendar: Calendar(identifier: .gregorian)))
    }

    /// The ISO 8601 instant, for machines.
    func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A duration in seconds: `850 ms`, `1.23 s`, `2 min 5 s`.
    func duration(_ seconds: Double) -> String {
        if seconds < 1 { return String(format: "%.0f ms", max(seconds, 0) * 1000) }
        if seconds < 60 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    /// A run's duration, or `—` while it runs.
    func duration(from start: Date, to end: Date?) -> String {
        guard let end else { return "—" }
        return duration(end.timeIntervalSince(start))
    }

    /// Reads a time as the filters and forms take it: what ``RunTime`` reads (`2026-03-08`,
    /// `2026-03-08T09:00:00Z`, `7d`), or the `datetime-local` form `2026-03-08T09:00` in the zone.
    func parse(_ text: String, now: Date? = nil) -> Date? {
        let now = now ?? clock.now()
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = RunTime.date(trimmed, now: now) { return date }
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}

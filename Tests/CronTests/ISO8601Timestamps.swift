import Foundation

@testable import Cron

/// Instants written as ISO-8601 text with their UTC offset, so that expected
/// fire times in tests read as local wall-clock times.
enum ISO8601Timestamps {
    /// Parses `2025-03-09T03:00:00-04:00` (the offset is required).
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else {
            preconditionFailure("malformed timestamp in test: \(text)")
        }
        return date
    }

    /// Formats an instant with the offset it has in `timeZone`.
    static func text(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = timeZone
        return formatter.string(from: date)
    }

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            preconditionFailure("unknown time zone in test: \(identifier)")
        }
        return zone
    }

    /// The next `count` fire times of `expression` after `start`, formatted in `zoneIdentifier`.
    static func fireTimes(
        _ expression: String, after start: String, in zoneIdentifier: String, count: Int
    ) throws -> [String] {
        let zone = zone(zoneIdentifier)
        let cron = try CronExpression(expression)
        return cron.nextDates(after: date(start), in: zone).prefix(count).map { text($0, in: zone) }
    }
}

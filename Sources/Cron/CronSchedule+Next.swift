import Foundation

/// Bounds that keep every search finite.
enum CronSearchLimits {
    /// How far past the start instant a search looks before giving up: eight
    /// years of 366 days, enough for any leap day (even across 2100).
    static let searchWindow: Int64 = 8 * 366 * 86_400
    /// Instants further than this from 1970 (about ±7,900 years) are not searched.
    static let largestSupportedInstant: Double = 2.5e11
}

extension CronSchedule {
    /// The first fire instant strictly after `after` (seconds since 1970, UTC),
    /// applying the daylight-saving rules documented on
    /// ``CronExpression/nextDate(after:in:)``.
    func nextInstant(after: Int64, in timeZone: TimeZone) -> Int64? {
        let timeline = ZoneOffsetTimeline.shared
        let searchEnd = after + CronSearchLimits.searchWindow
        var instant = after + 1
        while instant <= searchEnd {
            let segment = timeline.segment(containing: instant, in: timeZone)
            var firstWall = instant + segment.offset
            if isFixedTime && segment.offsetBefore > segment.offset {
                // The clock was set back at `segment.start`: wall times up to the
                // old offset repeat, and a fixed-time schedule already fired there.
                firstWall = max(firstWall, segment.start + segment.offsetBefore)
            }
            let lastInstant = min(segment.end, searchEnd + 1)
            if let wall = firstMatch(atOrAfter: firstWall, before: lastInstant + segment.offset) {
                return wall - segment.offset
            }
            if segment.end > searchEnd { return nil }
            if isFixedTime && segment.offsetAfter > segment.offset {
                // The clock jumps forward at `segment.end`: a fixed time inside the
                // skipped wall times fires once, at the first instant after the gap.
                let gapStart = segment.end + segment.offset
                let gapEnd = segment.end + segment.offsetAfter
                if firstMatch(atOrAfter: gapStart, before: gapEnd) != nil {
                    return segment.end
                }
            }
            instant = segment.end
        }
        return nil
    }
}

extension CronExpression {
    /// The first time the schedule fires strictly after `date`.
    ///
    /// Fields are matched against the local wall clock of `timeZone`. Around
    /// daylight-saving changes the rules are Vixie cron's:
    ///
    /// - A *fixed-time* schedule (see ``isFixedTime``) whose time falls in a
    ///   gap, when the clock jumps forward, fires once at the first instant
    ///   after the gap: `30 2 * * *` on a day where 02:00 becomes 03:00 fires
    ///   at 03:00. When the clock is set back and local times repeat, it fires
    ///   once, at the first occurrence.
    /// - Any other schedule skips local times that do not exist, and fires at
    ///   every occurrence of local times that repeat: `*/30 1 * * *` on a
    ///   fall-back day fires at 01:00 and 01:30 before the change and again at
    ///   01:00 and 01:30 after it.
    ///
    /// Shifts of any size work the same way, including Australia/Lord_Howe's
    /// 30-minute changes.
    ///
    /// ```swift
    /// let nightly = try CronExpression("30 2 * * *")
    /// let newYork = TimeZone(identifier: "America/New_York") ?? .gmt
    /// let march8 = Date(timeIntervalSince1970: 1_741_453_200)  // 2025-03-08 12:00 EST
    /// // 2025-03-09 has no 02:30 in New York; the job runs at 03:00 EDT instead.
    /// let fire = nightly.nextDate(after: march8, in: newYork)  // 2025-03-09T03:00:00-04:00
    /// ```
    ///
    /// - Parameters:
    ///   - date: The instant to search from; the result is always later.
    ///   - timeZone: The zone whose wall clock the fields describe.
    /// - Returns: The next fire time (on a whole second), or `nil` when nothing
    ///   matches within eight years (for example `0 0 30 2 *`).
    public func nextDate(after date: Date, in timeZone: TimeZone) -> Date? {
        let seconds = date.timeIntervalSince1970
        guard !runsAtStart, seconds.isFinite, abs(seconds) < CronSearchLimits.largestSupportedInstant else { return nil }
        guard let instant = schedule.nextInstant(after: Int64(seconds.rounded(.down)), in: timeZone) else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(instant))
    }

    /// The fire times after `date`, in order, computed lazily.
    ///
    /// The sequence ends when ``nextDate(after:in:)`` finds no further time.
    ///
    /// ```swift
    /// let quarterHours = try CronExpression("*/15 * * * *")
    /// let nextFour = Array(quarterHours.nextDates(after: .now, in: .gmt).prefix(4))
    /// ```
    ///
    /// - Parameters:
    ///   - date: The instant to search from; every element is later.
    ///   - timeZone: The zone whose wall clock the fields describe.
    /// - Returns: A lazy sequence of fire times, each strictly after the previous one.
    public func nextDates(after date: Date, in timeZone: TimeZone) -> some Sequence<Date> {
        sequence(state: date) { cursor -> Date? in
            guard let next = nextDate(after: cursor, in: timeZone) else { return nil }
            cursor = next
            return next
        }
    }
}

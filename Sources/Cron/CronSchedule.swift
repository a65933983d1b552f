/// The parsed, precomputed form of a cron expression: one bit set per time
/// field plus the combined day rule. Everything here works on local wall-clock
/// time expressed as seconds since 1970-01-01T00:00 (no time zone involved).
struct CronSchedule: Hashable, Sendable {
    var seconds: CronBitSet
    var minutes: CronBitSet
    var hours: CronBitSet
    var months: CronBitSet
    var days: CronDayRule
    /// Seconds (when present), minutes and hours are all single values or lists.
    var isFixedTime: Bool

    /// Whether the wall-clock time matches every field.
    func matches(wallSeconds: Int64) -> Bool {
        let (dayNumber, secondOfDay) = CivilCalendar.split(wallSeconds: wallSeconds)
        let date = CivilCalendar.date(fromDayNumber: dayNumber)
        guard seconds.contains(secondOfDay % 60),
            minutes.contains(secondOfDay / 60 % 60),
            hours.contains(secondOfDay / 3_600),
            months.contains(date.month)
        else { return false }
        return days.matchingDays(year: date.year, month: date.month) & (1 << UInt64(date.day)) != 0
    }

    /// The earliest matching wall-clock time `t` with `start <= t < limit`.
    ///
    /// Jumps field by field (month, day, hour, minute, second); each step either
    /// lands on a matching value or carries into the next larger unit, so the
    /// loop runs a handful of times per month it visits.
    func firstMatch(atOrAfter start: Int64, before limit: Int64) -> Int64? {
        guard start < limit else { return nil }
        let lastDayNumber = CivilCalendar.split(wallSeconds: limit - 1).dayNumber
        let (startDayNumber, startSecondOfDay) = CivilCalendar.split(wallSeconds: start)
        var (year, month, day) = CivilCalendar.date(fromDayNumber: startDayNumber)
        var hour = startSecondOfDay / 3_600
        var minute = startSecondOfDay / 60 % 60
        var second = startSecondOfDay % 60
        var maskMonthKey = Int.min
        var monthMask: UInt64 = 0

        while true {
            if !months.contains(month) {
                if let nextMonth = months.first(atOrAfter: month + 1) {
                    month = nextMonth
                } else if let firstMonth = months.first(atOrAfter: 1) {
                    year += 1
                    month = firstMonth
                } else {
                    return nil
                }
                day = 1
                hour = 0
                minute = 0
                second = 0
                if CivilCalendar.dayNumber(year: year, month: month, day: 1) > lastDayNumber { return nil }
            }

            let monthKey = year * 12 + month
            if monthKey != maskMonthKey {
                maskMonthKey = monthKey
                monthMask = days.matchingDays(year: year, month: month)
            }
            let remainingDays = day >= 64 ? 0 : monthMask & (~UInt64(0) << UInt64(day))
            if remainingDays == 0 {
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
                day = 1
                hour = 0
                minute = 0
                second = 0
                if CivilCalendar.dayNumber(year: year, month: month, day: 1) > lastDayNumber { return nil }
                continue
            }
            let matchingDay = remainingDays.trailingZeroBitCount
            if matchingDay != day {
                day = matchingDay
                hour = 0
                minute = 0
                second = 0
            }
            let dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
            if dayNumber > lastDayNumber { return nil }

            guard let matchingHour = hours.first(atOrAfter: hour) else {
                day += 1
                hour = 0
                minute = 0
                second = 0
                continue
            }
            if matchingHour != hour {
                hour = matchingHour
                minute = 0
                second = 0
            }
            guard let matchingMinute = minutes.first(atOrAfter: minute) else {
                hour += 1
                minute = 0
                second = 0
                continue
            }
            if matchingMinute != minute {
                minute = matchingMinute
                second = 0
            }
            guard let matchingSecond = seconds.first(atOrAfter: second) else {
                minute += 1
                second = 0
                continue
            }
            let wall =
                Int64(dayNumber) * CivilCalendar.secondsPerDay
                + Int64(hour * 3_600 + minute * 60 + matchingSecond)
            return wall < limit ? wall : nil
        }
    }
}

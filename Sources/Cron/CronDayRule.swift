/// The day-of-month and day-of-week fields combined, resolved per month into a
/// bit mask of matching days.
///
/// As in cronie and Vixie cron (their `DOM_STAR` and `DOW_STAR` flags), a field whose text
/// begins with `*` (`*`, `*/2`, `*/2,15`) or is `?` counts as unrestricted for the OR rule:
/// when neither field begins so, a day matches if either field matches; otherwise it must
/// match both. So `0 0 */2 * MON` fires on odd days that are Mondays.
struct CronDayRule: Hashable, Sendable {
    /// Plain days of month, bit `d` for day `d` (1–31).
    var daysOfMonth: UInt64 = 0
    /// Bit `n` set for `L-n` (bit 0 is plain `L`).
    var lastDayOffsets: UInt64 = 0
    /// Bit `d` set for `dW`.
    var nearestWeekdayDays: UInt64 = 0
    /// `LW` is present.
    var includesLastWeekdayOfMonth = false
    /// Plain weekdays, bit 0 = Sunday … bit 6 = Saturday.
    var weekdays: UInt64 = 0
    /// Bit `(ordinal - 1) * 7 + weekday` set for `weekday#ordinal`.
    var nthWeekdays: UInt64 = 0
    /// Bit `weekday` set for `weekdayL`.
    var lastWeekdays: UInt64 = 0
    /// The day-of-month field is something other than `*` or `?`.
    var dayOfMonthIsRestricted = false
    /// The day-of-week field is something other than `*` or `?`.
    var dayOfWeekIsRestricted = false
    /// The day-of-month field begins with `*` or is `?` (cronie's `DOM_STAR`).
    var dayOfMonthBeginsWithStar = true
    /// The day-of-week field begins with `*` or is `?` (cronie's `DOW_STAR`).
    var dayOfWeekBeginsWithStar = true

    /// Whether a day matches if either field matches (neither field begins with `*`),
    /// rather than if both do.
    var matchesEitherField: Bool { !dayOfMonthBeginsWithStar && !dayOfWeekBeginsWithStar }

    /// Bits 0, 7, 14, 21, 28 and 35: one bit per week.
    private static let weeklyPattern: UInt64 = 0x8_1020_4081

    /// Matching days of the given month, bit `d` for day `d`.
    func matchingDays(year: Int, month: Int) -> UInt64 {
        let length = CivilCalendar.daysInMonth(year: year, month: month)
        let monthDays: UInt64 = ((1 << UInt64(length)) - 1) << 1
        if !dayOfMonthIsRestricted && !dayOfWeekIsRestricted {
            return monthDays
        }
        let firstWeekday = CivilCalendar.weekday(
            ofDayNumber: CivilCalendar.dayNumber(year: year, month: month, day: 1))
        let byDayOfMonth =
            dayOfMonthIsRestricted
            ? dayOfMonthMask(length: length, firstWeekday: firstWeekday) : monthDays
        let byDayOfWeek =
            dayOfWeekIsRestricted
            ? dayOfWeekMask(length: length, firstWeekday: firstWeekday) : monthDays
        let combined =
            matchesEitherField
            ? byDayOfMonth | byDayOfWeek
            : byDayOfMonth & byDayOfWeek
        return combined & monthDays
    }

    private func weekday(ofDay day: Int, firstWeekday: Int) -> Int {
        (firstWeekday + day - 1) % 7
    }

    private func dayOfMonthMask(length: Int, firstWeekday: Int) -> UInt64 {
        var mask = daysOfMonth
        var offsets = lastDayOffsets
        while offsets != 0 {
            let offset = offsets.trailingZeroBitCount
            offsets &= offsets - 1
            let day = length - offset
            if day >= 1 { mask |= 1 << UInt64(day) }
        }
        if includesLastWeekdayOfMonth {
            let lastWeekday = weekday(ofDay: length, firstWeekday: firstWeekday)
            let day = lastWeekday == 6 ? length - 1 : lastWeekday == 0 ? length - 2 : length
            mask |= 1 << UInt64(day)
        }
        var nearest = nearestWeekdayDays
        while nearest != 0 {
            let target = nearest.trailingZeroBitCount
            nearest &= nearest - 1
            guard target <= length else { continue }  // the month has no such day
            let day: Int
            switch weekday(ofDay: target, firstWeekday: firstWeekday) {
            case 6: day = target == 1 ? 3 : target - 1  // Saturday: Friday, or Monday the 3rd
            case 0: day = target == length ? target - 2 : target + 1  // Sunday: Monday, or Friday
            default: day = target
            }
            mask |= 1 << UInt64(day)
        }
        return mask
    }

    private func dayOfWeekMask(length: Int, firstWeekday: Int) -> UInt64 {
        var mask: UInt64 = 0
        var plain = weekdays
        while plain != 0 {
            let weekday = plain.trailingZeroBitCount
            plain &= plain - 1
            let firstDay = 1 + (weekday - firstWeekday + 7) % 7
            mask |= Self.weeklyPattern << UInt64(firstDay)
        }
        var nth = nthWeekdays
        while nth != 0 {
            let bit = nth.trailingZeroBitCount
            nth &= nth - 1
            let weekday = bit % 7
            let ordinal = bit / 7 + 1
            let day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (ordinal - 1)
            if day <= length { mask |= 1 << UInt64(day) }
        }
        var last = lastWeekdays
        if last != 0 {
            let weekdayOfLastDay = weekday(ofDay: length, firstWeekday: firstWeekday)
            while last != 0 {
                let weekday = last.trailingZeroBitCount
                last &= last - 1
                mask |= 1 << UInt64(length - (weekdayOfLastDay - weekday + 7) % 7)
            }
        }
        return mask
    }
}

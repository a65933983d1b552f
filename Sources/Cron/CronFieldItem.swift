/// One comma-separated element of a cron field, as written by the user.
///
/// Values are kept as written (a day of week of 7 stays 7) so that explanations
/// can follow the user's spelling; the schedule normalizes them.
enum CronFieldItem: Hashable, Sendable {
    /// How a stepped item was written.
    enum StepForm: Hashable, Sendable {
        /// `*/n`
        case wildcard
        /// `a-b/n`
        case range
        /// `a/n`, meaning from `a` through the field's maximum
        case open
    }

    /// `*`
    case every
    /// `?`, no specific value (day of month or day of week only)
    case noSpecificValue
    /// A single number or name.
    case value(Int)
    /// `a-b`, inclusive.
    case range(Int, Int)
    /// A stepped run from `start` through `end` (inclusive bounds).
    case step(start: Int, end: Int, step: Int, form: StepForm)
    /// `L` (offset 0) or `L-n` in day of month: `n` days before the month's last day.
    case lastDayOfMonth(offset: Int)
    /// `nW` in day of month: the weekday nearest day `n`, within the same month.
    case nearestWeekday(Int)
    /// `LW` in day of month: the last Monday–Friday of the month.
    case lastWeekdayOfMonth
    /// `d#k` in day of week: the `k`th weekday `d` of the month.
    case nthWeekday(weekday: Int, ordinal: Int)
    /// `dL` in day of week: the last weekday `d` of the month.
    case lastWeekday(Int)

    /// The plain values this item contributes, or an empty array for the
    /// calendar-relative items (`L`, `W`, `#`).
    func plainValues(in field: CronField) -> [Int] {
        switch self {
        case .every, .noSpecificValue:
            return Array(field.bounds)
        case .value(let value):
            return [value]
        case .range(let low, let high):
            return Array(low...high)
        case .step(let start, let end, let step, _):
            return Array(stride(from: start, through: end, by: step))
        case .lastDayOfMonth, .nearestWeekday, .lastWeekdayOfMonth, .nthWeekday, .lastWeekday:
            return []
        }
    }

    /// Whether the item names exactly one value (no wildcard, range or step).
    var isSingleValue: Bool {
        if case .value = self { return true }
        return false
    }
}

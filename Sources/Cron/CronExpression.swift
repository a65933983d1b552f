import Foundation

/// A parsed cron expression: when something should run.
///
/// Supports the classic five fields (minute, hour, day of month, month,
/// day of week), an optional leading seconds field, names (`JAN`–`DEC`,
/// `SUN`–`SAT`), ranges, steps, lists, the macros `@yearly`, `@annually`,
/// `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly` and `@reboot`
/// (see ``runsAtStart``), and the Quartz extensions `L`, `L-n`, `W`, `LW`, `#`,
/// `dL` and `?`.
///
/// When neither day field begins with `*` (nor is `?`), a day matches if
/// *either* field matches; otherwise both must match (cronie's and Vixie
/// cron's `DOM_STAR`/`DOW_STAR` rule). So `1-31` counts as restricted, while
/// `*/2` does not: `0 0 */2 * MON` fires on odd days that are Mondays.
///
/// ```swift
/// let workdays = try CronExpression("0 9 * * MON-FRI")
/// let paris = TimeZone(identifier: "Europe/Paris") ?? .gmt
/// let next = workdays.nextDate(after: .now, in: paris)
/// print(workdays.explanation)  // At 09:00, Monday through Friday
/// ```
///
/// Two expressions are equal when they describe the same schedule field by
/// field, however they are spelled (`@daily` equals `0 0 * * *`).
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written, without surrounding whitespace.
    ///
    /// ```swift
    /// try CronExpression(" @daily ").description  // "@daily"
    /// ```
    public let description: String

    /// Whether the expression has a leading seconds field (six fields).
    ///
    /// Without one, the schedule fires on whole minutes (second 0).
    ///
    /// ```swift
    /// try CronExpression("*/10 * * * * *").hasSeconds  // true
    /// try CronExpression("*/10 * * * *").hasSeconds    // false
    /// ```
    public let hasSeconds: Bool
    let schedule: CronSchedule
    /// Parsed items per field, indexed by `CronField.rawValue`; a missing
    /// seconds field reads as `0`.
    let fieldItems: [[CronFieldItem]]

    /// Parses a cron expression.
    ///
    /// ```swift
    /// let report = try CronExpression("30 2 L * *")       // 02:30 on the last day of each month
    /// let precise = try CronExpression("*/10 * * * * *")  // every 10 seconds
    /// let yearly = try CronExpression("@yearly")
    /// ```
    ///
    /// - Parameters:
    ///   - text: Five fields (`minute hour day-of-month month day-of-week`),
    ///     six fields with a leading seconds field, or a macro such as `@daily`.
    ///     Fields are separated by whitespace; names are case-insensitive.
    /// - Throws: ``CronError`` naming the field, the 1-based column of the
    ///   offending text and what to change, e.g.
    ///   `field 3 (day of month): 32 is out of range 1–31`.
    public init(_ text: String) throws(CronError) {
        self = try CronParser.parse(text)
    }

    init(source: String, schedule: CronSchedule, fieldItems: [[CronFieldItem]], hasSeconds: Bool, runsAtStart: Bool = false) {
        self.description = source
        self.schedule = schedule
        self.fieldItems = fieldItems
        self.hasSeconds = hasSeconds
        self.runsAtStart = runsAtStart
    }

    /// Whether the expression is `@reboot`: it runs once when whoever runs the schedule
    /// starts (the daemon), and has no fire times (``nextDate(after:in:)`` is `nil`).
    ///
    /// ```swift
    /// try CronExpression("@reboot").runsAtStart   // true
    /// try CronExpression("@daily").runsAtStart    // false
    /// ```
    public let runsAtStart: Bool

    /// Whether the schedule names fixed times of day.
    ///
    /// A fixed-time schedule has only single values or lists (no `*`, range or
    /// step) in its minute and hour fields, and in its seconds field when it
    /// has one. `0 9 * * *` and `0,30 9,17 * * *` are fixed-time; `*/15 * * * *`
    /// and `0 9-17 * * *` are not. Fixed-time schedules follow different
    /// daylight-saving rules; see ``nextDate(after:in:)``.
    ///
    /// ```swift
    /// try CronExpression("30 2 * * *").isFixedTime  // true
    /// try CronExpression("@hourly").isFixedTime     // false: the hour is *
    /// ```
    public var isFixedTime: Bool { schedule.isFixedTime }

    /// Whether a date's local wall-clock reading matches every field.
    ///
    /// This checks the fields only; it does not apply the daylight-saving rules
    /// of ``nextDate(after:in:)`` (a second pass through a repeated hour
    /// matches here even for a fixed-time schedule).
    ///
    /// ```swift
    /// let noon = try CronExpression("0 12 * * *")
    /// let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .gmt
    /// noon.matches(Date(timeIntervalSince1970: 1_735_700_400), in: tokyo)  // true: 2025-01-01 12:00 in Tokyo
    /// ```
    ///
    /// - Parameters:
    ///   - date: The instant to test; without a seconds field only whole minutes match.
    ///   - timeZone: The zone whose wall clock is compared with the fields.
    /// - Returns: `true` when second (if any), minute, hour, month and day all match.
    public func matches(_ date: Date, in timeZone: TimeZone) -> Bool {
        let seconds = date.timeIntervalSince1970
        guard !runsAtStart, seconds.isFinite, seconds.rounded(.down) == seconds,
            abs(seconds) < CronSearchLimits.largestSupportedInstant
        else { return false }
        let instant = Int64(seconds)
        let offset = ZoneOffsetTimeline.shared.segment(containing: instant, in: timeZone).offset
        return schedule.matches(wallSeconds: instant + offset)
    }

    /// Whether two expressions describe the same schedule, field by field.
    ///
    /// ```swift
    /// try CronExpression("@daily") == CronExpression("0 0 * * *")        // true
    /// try CronExpression("0 0 * * 7") == CronExpression("0 0 * * SUN")  // true
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: An expression.
    ///   - rhs: Another expression.
    /// - Returns: `true` when the parsed schedules (and the presence of a
    ///   seconds field) are identical, whatever the spelling.
    public static func == (lhs: CronExpression, rhs: CronExpression) -> Bool {
        lhs.schedule == rhs.schedule && lhs.hasSeconds == rhs.hasSeconds && lhs.runsAtStart == rhs.runsAtStart
    }

    /// Hashes the parsed schedule, consistently with ``==(_:_:)``.
    ///
    /// ```swift
    /// let unique = Set([try CronExpression("@daily"), try CronExpression("0 0 * * *")])  // one element
    /// ```
    ///
    /// - Parameters:
    ///   - hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(schedule)
        hasher.combine(hasSeconds)
        hasher.combine(runsAtStart)
    }
}

import Clockwork
import Foundation

/// Reads and writes the ISO-8601 forms used by `$time.iso(…)`.
enum ISO8601Formatting {
    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDThh:mm[:ss[.fff]]` with an optional `Z` or `±hh[:mm]`.
    ///
    /// A value without a zone designator is read as UTC.
    static func date(from text: String) -> Date? {
        let scalars = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= scalars.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = scalars[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < scalars.count, scalars[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0.0
        var offsetSeconds = 0
        if index < scalars.count {
            guard expect(84) || expect(116) || expect(32) else { return nil }
            guard let h = digits(2), expect(58), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let s = digits(2) else { return nil }
                second = Double(s)
                if expect(46) || expect(44) {
                    var fraction = 0.0
                    var scale = 0.1
                    var any = false
                    while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                        fraction += Double(scalars[index] - 48) * scale
                        scale /= 10
                        index += 1
                        any = true
                    }
                    guard any else { return nil }
                    second += fraction
                }
            }
            if index < scalars.count {
                if expect(90) || expect(122) {
                    offsetSeconds = 0
                } else if index < scalars.count, scalars[index] == 43 || scalars[index] == 45 {
                    let sign = scalars[index] == 45 ? -1 : 1
                    index += 1
                    guard let oh = digits(2) else { return nil }
                    var om = 0
                    if expect(58) {
                        guard let value = digits(2) else { return nil }
                        om = value
                    } else if let value = digits(2) {
                        om = value
                    }
                    offsetSeconds = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
        }
        guard index == scalars.count else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        var components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: 0)
        components.nanosecond = 0
        guard let base = calendar.date(from: components) else { return nil }
        guard calendar.component(.day, from: base) == day else { return nil }
        return base.addingTimeInterval(second - Double(offsetSeconds))
    }

    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let fraction = date.timeIntervalSince1970 - floor(date.timeIntervalSince1970)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        if fraction > 0.0005 { text += String(format: ".%03d", Int((fraction * 1000).rounded()) % 1000) }
        return text + "Z"
    }
}

/// The clock and calendar that `$time` values are resolved against.
///
/// ```swift
/// let environment = QueryEnvironment(now: Date(timeIntervalSince1970: 1_700_000_000), calendar: Calendar(identifier: .gregorian))
/// ```
public struct QueryEnvironment: Sendable {
    /// The current instant, `$time.now`.
    public var now: Date
    /// The calendar (and its time zone) that defines days, weeks, months and years.
    public var calendar: Calendar

    /// Creates an environment for a given instant.
    ///
    /// ```swift
    /// let environment = QueryEnvironment(now: Date(timeIntervalSince1970: 1_700_000_000))
    /// ```
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - calendar: The calendar; defaults to the current one.
    public init(now: Date, calendar: Calendar = .current) {
        self.now = now
        self.calendar = calendar
    }

    /// Creates an environment whose "now" is the clock's time at the moment of creation.
    ///
    /// ```swift
    /// let environment = QueryEnvironment()                 // the real time
    /// let pinned = QueryEnvironment(clock: index.clock)    // the index's clock's time
    /// ```
    ///
    /// - Parameters:
    ///   - clock: The clock read for "now"; the real one by default.
    ///   - calendar: The calendar; defaults to the current one.
    public init(clock: any EngineClock = .system, calendar: Calendar = .current) {
        self.init(now: clock.now(), calendar: calendar)
    }

    /// The instant a `$time` value stands for.
    func resolve(_ value: TimeValue) -> Date {
        switch value {
        case .now(let seconds):
            return now.addingTimeInterval(seconds)
        case .today(let days):
            return add(.day, days, to: calendar.startOfDay(for: now))
        case .yesterday(let days):
            return add(.day, days - 1, to: calendar.startOfDay(for: now))
        case .thisWeek(let weeks):
            let start = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? calendar.startOfDay(for: now)
            return add(.weekOfYear, weeks, to: start)
        case .thisMonth(let months):
            let start = calendar.dateInterval(of: .month, for: now)?.start ?? calendar.startOfDay(for: now)
            return add(.month, months, to: start)
        case .thisYear(let years):
            let start = calendar.dateInterval(of: .year, for: now)?.start ?? calendar.startOfDay(for: now)
            return add(.year, years, to: start)
        case .iso(let date):
            return date
        }
    }

    private func add(_ component: Calendar.Component, _ amount: Int, to date: Date) -> Date {
        amount == 0 ? date : (calendar.date(byAdding: component, value: amount, to: date) ?? date)
    }
}

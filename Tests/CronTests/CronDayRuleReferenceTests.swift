import Foundation
import SeededRandom
import Testing

@testable import Cron

/// Generated expressions with `*/n` and `*`-led lists in both day fields, compared with a
/// minute-by-minute reference that implements cronie's rule: a day field whose text begins with
/// `*` sets `DOM_STAR` or `DOW_STAR`, and then a day must match both fields; otherwise either.
@Suite("Day fields against cronie's rule")
struct CronDayRuleReferenceTests {
    /// One generated field: its text and the values it stands for.
    struct Field {
        var text: String
        var values: Set<Int>
    }

    /// The reference: an expression as sets of values plus cronie's two flags.
    struct Reference {
        var minutes: Set<Int>
        var hours: Set<Int>
        var daysOfMonth: Set<Int>
        var months: Set<Int>
        var weekdays: Set<Int>
        var dayOfMonthStar: Bool
        var dayOfWeekStar: Bool

        func dayMatches(_ components: DateComponents) -> Bool {
            guard let month = components.month, months.contains(month),
                let day = components.day, let weekday = components.weekday
            else { return false }
            let byDayOfMonth = daysOfMonth.contains(day)
            let byDayOfWeek = weekdays.contains(weekday - 1)
            return dayOfMonthStar || dayOfWeekStar ? byDayOfMonth && byDayOfWeek : byDayOfMonth || byDayOfWeek
        }

        /// Scans minute by minute (skipping days that do not match) up to `limit`.
        func fireTimes(after start: Date, count: Int, limit: Date, calendar: Calendar) -> [Date] {
            var fires: [Date] = []
            var minute = Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60)
            while fires.count < count && minute <= limit {
                let components = calendar.dateComponents([.month, .day, .weekday, .hour, .minute], from: minute)
                guard dayMatches(components) else {
                    minute = calendar.startOfDay(for: minute).addingTimeInterval(86_400)
                    continue
                }
                if hours.contains(components.hour!) && minutes.contains(components.minute!) {
                    fires.append(minute)
                }
                minute.addTimeInterval(60)
            }
            return fires
        }
    }

    static func values(_ range: ClosedRange<Int>, step: Int) -> Set<Int> {
        Set(stride(from: range.lowerBound, through: range.upperBound, by: step))
    }

    /// A day field: `*`, `*/n`, `*/n,k`, a value, a list or a range.
    static func dayField(bounds: ClosedRange<Int>, using generator: inout SeededRandomNumberGenerator) -> Field {
        let low = bounds.lowerBound
        let high = bounds.upperBound
        let step = Int.random(in: 1...(high == 7 ? 6 : 15), using: &generator)
        let value = Int.random(in: low...high, using: &generator)
        let other = Int.random(in: low...high, using: &generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return Field(text: "*", values: Set(bounds))
        case 1, 2: return Field(text: "*/\(step)", values: values(bounds, step: step))
        case 3: return Field(text: "*/\(step),\(value)", values: values(bounds, step: step).union([value]))
        case 4: return Field(text: "\(value)", values: [value])
        case 5: return Field(text: "\(value),\(other)", values: [value, other])
        default:
            let (first, last) = (min(value, other), max(value, other))
            return Field(text: "\(first)-\(last)", values: Set(first...last))
        }
    }

    @Test("1,200 generated expressions agree with the reference")
    func generatedExpressions() throws {
        var generator = SeededRandomNumberGenerator(seed: 2025_0113)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let minuteFields = [Field(text: "0", values: [0]), Field(text: "*/20", values: [0, 20, 40]), Field(text: "5,35", values: [5, 35])]
        let hourFields = [Field(text: "0", values: [0]), Field(text: "*/8", values: [0, 8, 16]), Field(text: "9-10", values: [9, 10])]
        let monthFields = [Field(text: "*", values: Set(1...12)), Field(text: "*/3", values: [1, 4, 7, 10]), Field(text: "2", values: [2])]
        var mismatches: [String] = []
        var checked = 0
        for _ in 0..<1_200 {
            let minute = minuteFields.randomElement(using: &generator)!
            let hour = hourFields.randomElement(using: &generator)!
            let month = monthFields.randomElement(using: &generator)!
            let dayOfMonth = Self.dayField(bounds: 1...31, using: &generator)
            let dayOfWeek = Self.dayField(bounds: 0...7, using: &generator)
            let text = [minute.text, hour.text, dayOfMonth.text, month.text, dayOfWeek.text].joined(separator: " ")
            let reference = Reference(
                minutes: minute.values, hours: hour.values, daysOfMonth: dayOfMonth.values, months: month.values,
                weekdays: Set(dayOfWeek.values.map { $0 % 7 }),
                dayOfMonthStar: dayOfMonth.text.hasPrefix("*"), dayOfWeekStar: dayOfWeek.text.hasPrefix("*"))
            let start = Date(timeIntervalSince1970: Double(Int.random(in: 1_704_067_200...1_893_456_000, using: &generator)))
            let limit = start.addingTimeInterval(4 * 366 * 86_400)
            let expected = reference.fireTimes(after: start, count: 3, limit: limit, calendar: calendar)
            let actual = Array(try CronExpression(text).nextDates(after: start, in: .gmt).prefix(3).prefix { $0 <= limit })
            if actual != expected { mismatches.append("\(text) after \(start): expected \(expected), got \(actual)") }
            checked += 1
        }
        #expect(checked == 1_200)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}

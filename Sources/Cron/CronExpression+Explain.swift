extension CronExpression {
    /// The schedule described in plain English.
    ///
    /// ```swift
    /// try CronExpression("0 9 * * 1-5").explanation    // "At 09:00, Monday through Friday"
    /// try CronExpression("*/5 * * * *").explanation    // "Every 5 minutes"
    /// try CronExpression("30 2 L * *").explanation     // "At 02:30 on the last day of the month"
    /// try CronExpression("0 12 ? * FRI#3").explanation // "At 12:00 on the third Friday of the month"
    /// try CronExpression("@reboot").explanation        // "Once at start, each time the daemon starts"
    /// ```
    ///
    /// - Returns: One sentence covering the time of day, the days and the months.
    public var explanation: String {
        if runsAtStart { return "Once at start, each time the daemon starts" }
        return CronSentence(expression: self).text
    }
}

/// Builds the English sentence for an expression from its parsed items.
private struct CronSentence {
    let items: [[CronFieldItem]]
    let schedule: CronSchedule
    let hasSeconds: Bool

    init(expression: CronExpression) {
        items = expression.fieldItems
        schedule = expression.schedule
        hasSeconds = expression.hasSeconds
    }

    var text: String {
        var sentence = timeClause
        sentence += dayClause
        if let months = monthClause {
            sentence += ", " + months
        }
        guard let first = sentence.first else { return sentence }
        return first.uppercased() + sentence.dropFirst()
    }

    private func items(_ field: CronField) -> [CronFieldItem] {
        items[field.rawValue]
    }

    // MARK: - Time of day

    /// How a seconds or minutes field reads.
    private enum Rhythm {
        /// Every unit (`*`).
        case every
        /// Regular, e.g. "every 10 minutes" or "every minute from 5 through 20".
        case regular(String)
        /// Specific points, e.g. "at minute 5" or "at minutes 0 and 30".
        case points(String)
    }

    private var timeClause: String {
        let seconds = schedule.seconds.values
        let minutes = schedule.minutes.values
        let hours = schedule.hours.values
        if schedule.isFixedTime && seconds.count * minutes.count * hours.count <= 6 {
            let showSeconds = seconds != [0]
            var times: [String] = []
            for hour in hours {
                for minute in minutes {
                    for second in seconds {
                        times.append(Self.clockTime(hour: hour, minute: minute, second: showSeconds ? second : nil))
                    }
                }
            }
            return "at " + Self.joined(times)
        }

        var parts: [String] = []
        let secondRhythm: Rhythm? =
            hasSeconds && items(.second) != [.value(0)]
            ? rhythm(of: .second, unit: "second") : nil
        var lowest: Rhythm? = secondRhythm
        switch (secondRhythm, rhythm(of: .minute, unit: "minute")) {
        case (nil, let minuteRhythm):
            parts.append(phrase(minuteRhythm, unit: "minute"))
            lowest = minuteRhythm
        case (.some(.points(let secondText)), .every):
            parts.append(secondText + " of every minute")
            lowest = .every
        case (.some(let secondRhythm), .every):
            parts.append(phrase(secondRhythm, unit: "second"))
        case (.some(let secondRhythm), let minuteRhythm):
            parts.append(phrase(secondRhythm, unit: "second"))
            parts.append(phrase(minuteRhythm, unit: "minute"))
            lowest = minuteRhythm
        }

        let hourItems = items(.hour)
        if case .points = lowest {
            parts[parts.count - 1] += " past " + hoursAsNoun(hourItems)
        } else if let during = hoursAsPeriod(hourItems) {
            parts.append(during)
        }
        return parts.joined(separator: ", ")
    }

    private func rhythm(of field: CronField, unit: String) -> Rhythm {
        let fieldItems = items(field)
        let bounds = field.bounds
        if fieldItems.count == 1 {
            switch fieldItems[0] {
            case .every:
                return .every
            case .step(_, _, 1, .wildcard):
                return .every
            case .step(_, _, let step, .wildcard):
                return .regular(Self.everyCount(step, unit))
            case .range(let low, let high):
                return .regular("every \(unit) from \(unit) \(low) through \(high)")
            case .step(let start, let end, let step, .range):
                return .regular("\(Self.everyCount(step, unit)) from \(unit) \(start) through \(end)")
            case .step(let start, _, let step, .open):
                return .regular("\(Self.everyCount(step, unit)) starting at \(unit) \(start)")
            case .value(let value):
                return .points("at \(unit) \(value)")
            default:
                break
            }
        }
        let texts = fieldItems.map { numericItem($0, unit: unit, bounds: bounds) }
        return .points("at \(unit)s " + Self.joined(texts))
    }

    private func phrase(_ rhythm: Rhythm, unit: String) -> String {
        switch rhythm {
        case .every: "every \(unit)"
        case .regular(let text), .points(let text): text
        }
    }

    /// Hours as the object of "past …", e.g. "every hour", "every 2nd hour", "hours 9 through 17".
    private func hoursAsNoun(_ hourItems: [CronFieldItem]) -> String {
        if hourItems.count == 1 {
            switch hourItems[0] {
            case .every, .step(_, _, 1, .wildcard): return "every hour"
            case .step, .range, .value:
                return numericItem(hourItems[0], unit: "hour", bounds: CronField.hour.bounds, standalone: true)
            default: break
            }
        }
        return "hours " + Self.joined(hourItems.map { numericItem($0, unit: "hour", bounds: CronField.hour.bounds) })
    }

    /// Hours as a period qualifying a regular rhythm, or `nil` for every hour.
    private func hoursAsPeriod(_ hourItems: [CronFieldItem]) -> String? {
        if hourItems.count == 1 {
            switch hourItems[0] {
            case .every, .step(_, _, 1, .wildcard): return nil
            case .value(let hour):
                return "between \(Self.clockTime(hour: hour, minute: 0)) and \(Self.clockTime(hour: hour, minute: 59))"
            case .range(let low, let high):
                return "between \(Self.clockTime(hour: low, minute: 0)) and \(Self.clockTime(hour: high, minute: 59))"
            case .step(_, _, let step, .wildcard):
                return "during " + Self.everyNth(step, "hour")
            default: break
            }
        }
        return "during " + hoursAsNoun(hourItems)
    }

    /// One numeric item, e.g. "5", "10 through 20", "every 15th minute from 30 through 59";
    /// a lone value or range reads "hour 9", "hours 9 through 17" when it stands alone.
    private func numericItem(_ item: CronFieldItem, unit: String, bounds: ClosedRange<Int>, standalone: Bool = false) -> String {
        switch item {
        case .value(let value): return standalone ? "\(unit) \(value)" : "\(value)"
        case .range(let low, let high): return standalone ? "\(unit)s \(low) through \(high)" : "\(low) through \(high)"
        case .every: return "every \(unit)"
        case .step(let start, let end, let step, _):
            let every = Self.everyNth(step, unit)
            return start == bounds.lowerBound && end == bounds.upperBound ? every : "\(every) from \(start) through \(end)"
        default: return ""
        }
    }

    // MARK: - Days

    private var dayClause: String {
        let days = schedule.days
        switch (days.dayOfMonthIsRestricted, days.dayOfWeekIsRestricted) {
        case (false, false):
            return ""
        case (true, false):
            let phrase = dayOfMonthPhrase
            return phrase.hasPrefix("on ") ? " " + phrase : ", " + phrase
        case (false, true):
            return standaloneDayOfWeekPhrase
        case (true, true):
            let phrase = dayOfMonthPhrase
            let separator = phrase.hasPrefix("on ") ? " " : ", "
            guard days.matchesEitherField else {
                return separator + phrase + ", only on " + Self.joined(dayOfWeekParts)
            }
            return separator + phrase + " or on " + Self.joined(dayOfWeekParts)
        }
    }

    /// E.g. "on days 1 and 15 of the month", "on the last day of the month".
    private var dayOfMonthPhrase: String {
        var plainDays: [String] = []
        var singleDayCount = 0
        var others: [String] = []
        var offsetCount = 0
        let bounds = CronField.dayOfMonth.bounds
        for item in items(.dayOfMonth) {
            switch item {
            case .value(let day):
                plainDays.append("\(day)")
                singleDayCount += 1
            case .range(let low, let high):
                plainDays.append("\(low) through \(high)")
                singleDayCount += 2
            case .step(let start, let end, let step, let form):
                let every = Self.everyNth(step, "day")
                switch form {
                case .wildcard: others.append(every)
                case .range: others.append("\(every) from day \(start) through \(end)")
                case .open:
                    others.append(end == bounds.upperBound ? "\(every) starting on day \(start)" : "\(every) from day \(start) through \(end)")
                }
            case .lastDayOfMonth(0):
                others.append("the last day")
            case .lastDayOfMonth(let offset):
                others.append(offset == 1 ? "1 day before the last day" : "\(offset) days before the last day")
                offsetCount += 1
            case .nearestWeekday(let day):
                others.append("the weekday nearest day \(day)")
            case .lastWeekdayOfMonth:
                others.append("the last weekday")
            case .every, .noSpecificValue:
                others.append("every day")
            case .nthWeekday, .lastWeekday:
                break
            }
        }
        var parts: [String] = []
        if !plainDays.isEmpty {
            parts.append((singleDayCount == 1 ? "day " : "days ") + Self.joined(plainDays))
        }
        parts += others
        // "3 days before the last day of the month" reads better without "on".
        let prefix = offsetCount == parts.count ? "" : "on "
        return prefix + Self.joined(parts) + " of the month"
    }

    /// Day-of-week phrases used as alternatives: "Monday through Friday", "the last Friday of the month".
    private var dayOfWeekParts: [String] {
        var parts = Self.runs(of: plainWeekdays, in: 0...6, names: Self.weekdayNames, circular: true)
        for item in items(.dayOfWeek) {
            switch item {
            case .nthWeekday(let weekday, let ordinal):
                parts.append("the \(Self.ordinalWord(ordinal)) \(Self.weekdayNames[weekday % 7]) of the month")
            case .lastWeekday(let weekday):
                parts.append("the last \(Self.weekdayNames[weekday % 7]) of the month")
            default:
                break
            }
        }
        return parts
    }

    private var plainWeekdays: Set<Int> {
        Set(items(.dayOfWeek).flatMap { $0.plainValues(in: .dayOfWeek) }.map { $0 % 7 })
    }

    /// The day-of-week clause when day of month is unrestricted.
    private var standaloneDayOfWeekPhrase: String {
        let weekdays = plainWeekdays
        let hasCalendarRelative = items(.dayOfWeek).contains { item in
            switch item {
            case .nthWeekday, .lastWeekday: true
            default: false
            }
        }
        if hasCalendarRelative {
            return " on " + Self.joined(dayOfWeekParts)
        }
        if weekdays.count == 7 {
            return ", every day of the week"
        }
        let runs = Self.runs(of: weekdays, in: 0...6, names: Self.weekdayNames, circular: true)
        if runs.count == 1 && weekdays.count >= 3 {
            return ", " + runs[0]
        }
        return ", only on " + Self.joined(runs)
    }

    // MARK: - Months

    private var monthClause: String? {
        let months = Set(items(.month).flatMap { $0.plainValues(in: .month) })
        guard months.count < 12 else { return nil }
        let runs = Self.runs(of: months, in: 1...12, names: Self.monthNames, circular: true)
        if runs.count == 1 && months.count >= 3 {
            return runs[0]
        }
        return "only in " + Self.joined(runs)
    }

    // MARK: - Words

    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let monthNames = [
        "", "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December"
    ]

    /// Groups consecutive values: runs of three or more read "A through C",
    /// shorter runs list their members. With `circular`, a run may wrap from
    /// the last value to the first (Friday through Sunday).
    private static func runs(of values: Set<Int>, in domain: ClosedRange<Int>, names: [String], circular: Bool) -> [String] {
        guard !values.isEmpty else { return [] }
        let ordered = Array(domain)
        var start = ordered.startIndex
        if circular, values.count < ordered.count,
            let gap = ordered.lastIndex(where: { !values.contains($0) })
        {
            // A run wrapping from the end of the domain to its start (Friday
            // through Sunday, December and January) is kept whole when it is
            // long enough to read "A through C" or is the whole set.
            let wrappingRun = (ordered.count - 1 - gap) + (ordered.firstIndex { !values.contains($0) } ?? 0)
            if gap < ordered.count - 1 && values.contains(ordered[0])
                && (wrappingRun >= 3 || wrappingRun == values.count)
            {
                start = gap + 1
            }
        }
        let rotated = Array(ordered[start...] + ordered[..<start])
        var result: [String] = []
        var run: [Int] = []
        func flush() {
            if run.count >= 3, let first = run.first, let last = run.last {
                result.append("\(names[first]) through \(names[last])")
            } else {
                result += run.map { names[$0] }
            }
            run = []
        }
        for value in rotated {
            if values.contains(value) {
                run.append(value)
            } else {
                flush()
            }
        }
        flush()
        return result
    }

    static func clockTime(hour: Int, minute: Int, second: Int? = nil) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(twoDigits(hour)):\(twoDigits(minute))"
        if let second { text += ":\(twoDigits(second))" }
        return text
    }

    /// "a", "a and b", "a, b and c".
    static func joined(_ parts: [String]) -> String {
        switch parts.count {
        case 0: return ""
        case 1: return parts[0]
        default: return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        }
    }

    /// "every minute", "every 5 minutes".
    static func everyCount(_ step: Int, _ unit: String) -> String {
        step == 1 ? "every \(unit)" : "every \(step) \(unit)s"
    }

    /// "every day", "every 2nd day".
    static func everyNth(_ step: Int, _ unit: String) -> String {
        step == 1 ? "every \(unit)" : "every \(ordinal(step)) \(unit)"
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st…
    static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }

    static func ordinalWord(_ value: Int) -> String {
        ["first", "second", "third", "fourth", "fifth"][max(0, min(4, value - 1))]
    }
}

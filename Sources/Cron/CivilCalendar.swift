/// Proleptic Gregorian calendar arithmetic on "day numbers" (days since
/// 1970-01-01) without any time zone, used to walk local wall-clock time
/// without going through `Calendar`.
enum CivilCalendar {
    static let secondsPerDay: Int64 = 86_400

    /// Days since 1970-01-01 of the given date.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        // Count years from March so that the leap day is the last day of the year.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number.
    static func date(fromDayNumber dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Day of week of a day number, 0 = Sunday … 6 = Saturday.
    static func weekday(ofDayNumber dayNumber: Int) -> Int {
        let remainder = (dayNumber + 4) % 7  // 1970-01-01 was a Thursday
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// Splits wall-clock seconds since 1970-01-01T00:00 into a day number and
    /// the seconds elapsed in that day.
    static func split(wallSeconds: Int64) -> (dayNumber: Int, secondOfDay: Int) {
        var day = wallSeconds / secondsPerDay
        var rest = wallSeconds - day * secondsPerDay
        if rest < 0 {
            day -= 1
            rest += secondsPerDay
        }
        return (Int(day), Int(rest))
    }
}

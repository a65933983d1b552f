import Foundation
import Testing

@testable import Cron

@Suite("Parsing features")
struct CronParserTests {
    private func parse(_ text: String) throws -> CronExpression {
        try CronExpression(text)
    }

    @Test("Five fields: minute hour day-of-month month day-of-week, seconds fixed at 0")
    func fiveFields() throws {
        let cron = try parse("5 4 * * *")
        #expect(!cron.hasSeconds)
        #expect(cron.schedule.seconds.values == [0])
        #expect(cron.schedule.minutes.values == [5])
        #expect(cron.schedule.hours.values == [4])
        #expect(cron.schedule.months.values == Array(1...12))
    }

    @Test("@reboot parses, runs at start and has no fire times")
    func reboot() throws {
        let reboot = try CronExpression("@REBOOT")
        #expect(reboot.runsAtStart)
        #expect(!(try CronExpression("@yearly")).runsAtStart)
        #expect(reboot.nextDate(after: Date(timeIntervalSince1970: 0), in: .gmt) == nil)
        #expect(!reboot.matches(Date(timeIntervalSince1970: 0), in: .gmt))
        #expect(reboot.explanation == "Once at start, each time the daemon starts")
        #expect(reboot != (try CronExpression("0 0 31 2 *")))
    }

    @Test("Six fields start with seconds")
    func sixFields() throws {
        let cron = try parse("*/20 5 4 * * *")
        #expect(cron.hasSeconds)
        #expect(cron.schedule.seconds.values == [0, 20, 40])
        #expect(cron.schedule.minutes.values == [5])
        #expect(cron.schedule.hours.values == [4])
    }

    @Test("Single numbers at the field bounds")
    func bounds() throws {
        let cron = try parse("59 59 23 31 12 7")
        #expect(cron.schedule.seconds.values == [59])
        #expect(cron.schedule.minutes.values == [59])
        #expect(cron.schedule.hours.values == [23])
        #expect(cron.schedule.days.daysOfMonth == 1 << 31)
        #expect(cron.schedule.months.values == [12])
        #expect(cron.schedule.days.weekdays == 1)  // 7 is Sunday
    }

    @Test("Month and weekday names, case-insensitive")
    func names() throws {
        let cron = try parse("0 0 * jan,Jul,DEC mon-Fri")
        #expect(cron.schedule.months.values == [1, 7, 12])
        #expect(cron.schedule.days.weekdays == 0b011_1110)
        #expect(try parse("0 0 * * sun") == parse("0 0 * * 0"))
    }

    @Test("Ranges are inclusive")
    func ranges() throws {
        #expect(try parse("10-15 * * * *").schedule.minutes.values == Array(10...15))
        #expect(try parse("0 0 * MAR-MAY *").schedule.months.values == [3, 4, 5])
        #expect(try parse("5-5 * * * *").schedule.minutes.values == [5])
    }

    @Test("Steps: */n, a-b/n and a/n (a through the field's maximum)")
    func steps() throws {
        #expect(try parse("*/15 * * * *").schedule.minutes.values == [0, 15, 30, 45])
        #expect(try parse("10-30/10 * * * *").schedule.minutes.values == [10, 20, 30])
        #expect(try parse("5/20 * * * *").schedule.minutes.values == [5, 25, 45])
        #expect(try parse("0 */6 * * *").schedule.hours.values == [0, 6, 12, 18])
        #expect(try parse("0 0 * FEB/4 *").schedule.months.values == [2, 6, 10])
        #expect(try parse("0 0 */10 * *").schedule.days.daysOfMonth == (1 << 1 | 1 << 11 | 1 << 21 | 1 << 31))
    }

    @Test("Day-of-week steps run through 7, which is Sunday")
    func weekdaySteps() throws {
        // 1/3 is 1, 4, 7: Monday, Thursday, Sunday.
        #expect(try parse("0 0 * * 1/3").schedule.days.weekdays == (1 << 0 | 1 << 1 | 1 << 4))
        #expect(try parse("0 0 * * */2").schedule.days.weekdays == (1 << 0 | 1 << 2 | 1 << 4 | 1 << 6))
    }

    @Test("Lists mix numbers, ranges and steps")
    func lists() throws {
        #expect(try parse("1,5-7,*/30 * * * *").schedule.minutes.values == [0, 1, 5, 6, 7, 30])
        #expect(try parse("0 0 * * MON,WED-THU,7").schedule.days.weekdays == (1 << 0 | 1 << 1 | 1 << 3 | 1 << 4))
    }

    @Test("Day of week 0 and 7 are both Sunday")
    func sundayTwice() throws {
        #expect(try parse("0 0 * * 7") == parse("0 0 * * 0"))
        #expect(try parse("0 0 * * 5-7").schedule.days.weekdays == (1 << 0 | 1 << 5 | 1 << 6))
    }

    @Test("A range ending in SUN closes the week: FRI-SUN is Friday through Sunday")
    func rangeEndingOnSunday() throws {
        #expect(try parse("0 0 * * FRI-SUN") == parse("0 0 * * 5-7"))
        #expect(try parse("0 0 * * SAT-SUN") == parse("0 0 * * 0,6"))
        #expect(try parse("0 0 * * SUN-TUE") == parse("0 0 * * 0-2"))
    }

    @Test(
        "Macros expand to their five fields",
        arguments: [
            ("@yearly", "0 0 1 1 *"), ("@annually", "0 0 1 1 *"), ("@monthly", "0 0 1 * *"),
            ("@weekly", "0 0 * * 0"), ("@daily", "0 0 * * *"), ("@midnight", "0 0 * * *"),
            ("@hourly", "0 * * * *"), ("@DAILY", "0 0 * * *")
        ])
    func macros(macro: String, fields: String) throws {
        let cron = try parse(macro)
        #expect(cron == (try parse(fields)))
        #expect(cron.description == macro)
    }

    @Test("L in day of month is the last day; L-n is n days before it")
    func lastDayOfMonth() throws {
        #expect(try parse("0 0 L * *").schedule.days.lastDayOffsets == 1)
        #expect(try parse("0 0 L-3 * *").schedule.days.lastDayOffsets == 1 << 3)
        #expect(try parse("0 0 1,L * *").schedule.days.daysOfMonth == 1 << 1)
    }

    @Test("W: nearest weekday to a day, and LW: last weekday of the month")
    func nearestWeekday() throws {
        #expect(try parse("0 0 15W * *").schedule.days.nearestWeekdayDays == 1 << 15)
        #expect(try parse("0 0 lw * *").schedule.days.includesLastWeekdayOfMonth)
    }

    @Test("# is the nth weekday of the month, by name or number")
    func nthWeekday() throws {
        let byName = try parse("0 0 ? * FRI#3")
        #expect(byName.schedule.days.nthWeekdays == 1 << (2 * 7 + 5))
        #expect(byName == (try parse("0 0 ? * 5#3")))
        #expect(try parse("0 0 * * 7#1").schedule.days.nthWeekdays == 1 << 0)
    }

    @Test("dL in day of week is the last such weekday of the month")
    func lastWeekday() throws {
        #expect(try parse("0 0 * * 5L").schedule.days.lastWeekdays == 1 << 5)
        #expect(try parse("0 0 * * fril") == parse("0 0 * * 5L"))
    }

    @Test("? means no specific value and counts as unrestricted")
    func questionMark() throws {
        let cron = try parse("0 0 ? * MON")
        #expect(!cron.schedule.days.dayOfMonthIsRestricted)
        #expect(cron.schedule.days.dayOfWeekIsRestricted)
        #expect(cron == (try parse("0 0 * * MON")))
    }

    @Test("Only a bare * or ? leaves a day field unrestricted; */1 and 1-31 restrict it")
    func dayRestriction() throws {
        let bare = try parse("0 0 * * *")
        #expect(!bare.schedule.days.dayOfMonthIsRestricted && !bare.schedule.days.dayOfWeekIsRestricted)
        #expect(try parse("0 0 */1 * *").schedule.days.dayOfMonthIsRestricted)
        #expect(try parse("0 0 1-31 * *").schedule.days.dayOfMonthIsRestricted)
        #expect(try parse("0 0 * * 0-7").schedule.days.dayOfWeekIsRestricted)
    }

    @Test(
        "Fixed-time: single values or lists in the time fields only",
        arguments: [
            ("30 2 * * *", true), ("0,30 9,17 * * 1-5", true), ("@daily", true), ("15 30 2 * * *", true),
            ("*/15 * * * *", false), ("0 9-17 * * *", false), ("0 */2 * * *", false), ("@hourly", false),
            ("0-0 9 * * *", false), ("* 30 2 * * *", false), ("0/30 2 * * *", false)
        ])
    func fixedTime(expression: String, isFixed: Bool) throws {
        #expect(try parse(expression).isFixedTime == isFixed)
    }

    @Test("Fields may be separated by any whitespace; surrounding whitespace is dropped")
    func whitespace() throws {
        let cron = try parse("  0\t9  *   * \t1-5 \n")
        #expect(cron == (try parse("0 9 * * 1-5")))
        #expect(cron.description == "0\t9  *   * \t1-5")
    }

    @Test("Equality compares schedules, not spelling")
    func equality() throws {
        #expect(try parse("0 0 * * MON-FRI") == parse("0 0 * * 1,2,3,4,5"))
        #expect(try parse("0 0 * * *") != parse("0 0 0 * * *"))  // seconds field differs
        #expect(try parse("0 9 * * *") != parse("0-0 9 * * *"))  // fixed-time differs
        #expect(Set([try parse("@daily"), try parse("0 0 * * *"), try parse("@midnight")]).count == 1)
    }

    @Test("description is the expression as written")
    func description() throws {
        #expect(try parse(" */5 * * * * ").description == "*/5 * * * *")
        #expect("\(try parse("@weekly"))" == "@weekly")
    }
}

import Foundation
import Testing

@testable import Cron

/// Fire times in UTC and offset zones without daylight saving, one feature at a
/// time. Expected values were worked out by hand against a calendar.
@Suite("Next fire times")
struct CronNextDateTests {
    private func fires(_ expression: String, after start: String, in zone: String = "UTC", count: Int) throws -> [String] {
        try ISO8601Timestamps.fireTimes(expression, after: start, in: zone, count: count)
    }

    @Test("Weekday mornings skip the weekend")
    func weekdays() throws {
        #expect(
            try fires("0 9 * * 1-5", after: "2025-01-03T10:00:00Z", count: 3) == [
                "2025-01-06T09:00:00Z", "2025-01-07T09:00:00Z", "2025-01-08T09:00:00Z"
            ])
    }

    @Test("Results are strictly after the start, even when the start matches")
    func strictlyAfter() throws {
        #expect(try fires("0 9 * * *", after: "2025-01-06T09:00:00Z", count: 1) == ["2025-01-07T09:00:00Z"])
        let cron = try CronExpression("0 9 * * *")
        let almost = ISO8601Timestamps.date("2025-01-06T08:59:59Z").addingTimeInterval(0.5)
        #expect(cron.nextDate(after: almost, in: .gmt) == ISO8601Timestamps.date("2025-01-06T09:00:00Z"))
        let justAfter = ISO8601Timestamps.date("2025-01-06T09:00:00Z").addingTimeInterval(0.25)
        #expect(cron.nextDate(after: justAfter, in: .gmt) == ISO8601Timestamps.date("2025-01-07T09:00:00Z"))
    }

    @Test("Steps, ranges and lists in the time fields")
    func timeFields() throws {
        #expect(
            try fires("*/15 * * * *", after: "2025-01-01T10:50:00Z", count: 3) == [
                "2025-01-01T11:00:00Z", "2025-01-01T11:15:00Z", "2025-01-01T11:30:00Z"
            ])
        #expect(
            try fires("5/20 22-23 * * *", after: "2025-01-01T22:30:00Z", count: 4) == [
                "2025-01-01T22:45:00Z", "2025-01-01T23:05:00Z", "2025-01-01T23:25:00Z", "2025-01-01T23:45:00Z"
            ])
        #expect(
            try fires("0 8,12-13 * * *", after: "2025-01-01T12:00:00Z", count: 3) == [
                "2025-01-01T13:00:00Z", "2025-01-02T08:00:00Z", "2025-01-02T12:00:00Z"
            ])
    }

    @Test("A seconds field fires within the minute")
    func seconds() throws {
        #expect(
            try fires("*/20 * * * * *", after: "2025-01-01T12:00:05Z", count: 3) == [
                "2025-01-01T12:00:20Z", "2025-01-01T12:00:40Z", "2025-01-01T12:01:00Z"
            ])
        #expect(try fires("30 59 23 31 12 *", after: "2025-06-01T00:00:00Z", count: 1) == ["2025-12-31T23:59:30Z"])
    }

    @Test("Month names and a month list")
    func months() throws {
        #expect(
            try fires("0 0 1 jan,Jul *", after: "2025-02-01T00:00:00Z", count: 2) == [
                "2025-07-01T00:00:00Z", "2026-01-01T00:00:00Z"
            ])
    }

    @Test(
        "Macros",
        arguments: [
            ("@yearly", "2026-01-01T00:00:00Z"), ("@annually", "2026-01-01T00:00:00Z"),
            ("@monthly", "2025-07-01T00:00:00Z"), ("@weekly", "2025-06-22T00:00:00Z"),
            ("@daily", "2025-06-19T00:00:00Z"), ("@midnight", "2025-06-19T00:00:00Z"),
            ("@hourly", "2025-06-18T11:00:00Z")
        ])
    func macros(macro: String, expected: String) throws {
        #expect(try fires(macro, after: "2025-06-18T10:30:00Z", count: 1) == [expected])  // a Wednesday
    }

    @Test("L: last day of the month, including February in a leap year")
    func lastDay() throws {
        #expect(
            try fires("0 0 L * *", after: "2024-02-10T00:00:00Z", count: 3) == [
                "2024-02-29T00:00:00Z", "2024-03-31T00:00:00Z", "2024-04-30T00:00:00Z"
            ])
    }

    @Test("L-3: three days before the last day")
    func daysBeforeLast() throws {
        #expect(
            try fires("0 0 L-3 * *", after: "2024-02-10T00:00:00Z", count: 3) == [
                "2024-02-26T00:00:00Z", "2024-03-28T00:00:00Z", "2024-04-27T00:00:00Z"
            ])
    }

    @Test("15W: the nearest weekday, Friday before a Saturday and Monday after a Sunday")
    func nearestWeekday() throws {
        // 2025-03-15 is a Saturday, 2025-06-15 a Sunday.
        #expect(
            try fires("0 0 15W * *", after: "2025-03-01T00:00:00Z", count: 4) == [
                "2025-03-14T00:00:00Z", "2025-04-15T00:00:00Z", "2025-05-15T00:00:00Z", "2025-06-16T00:00:00Z"
            ])
    }

    @Test("W never crosses a month boundary")
    func nearestWeekdayStaysInMonth() throws {
        // 2025-03-01 is a Saturday: the nearest weekday inside March is Monday the 3rd.
        #expect(
            try fires("0 0 1W * *", after: "2025-02-15T00:00:00Z", count: 2) == [
                "2025-03-03T00:00:00Z", "2025-04-01T00:00:00Z"
            ])
        // 2025-05-31 is a Saturday and 2025-08-31 a Sunday: both move back to Friday.
        // Months without a 31st have no 31W day.
        #expect(
            try fires("0 0 31W * *", after: "2025-04-01T00:00:00Z", count: 4) == [
                "2025-05-30T00:00:00Z", "2025-07-31T00:00:00Z", "2025-08-29T00:00:00Z", "2025-10-31T00:00:00Z"
            ])
    }

    @Test("LW: last weekday of the month")
    func lastWeekdayOfMonth() throws {
        #expect(
            try fires("0 0 LW * *", after: "2025-05-01T00:00:00Z", count: 4) == [
                "2025-05-30T00:00:00Z", "2025-06-30T00:00:00Z", "2025-07-31T00:00:00Z", "2025-08-29T00:00:00Z"
            ])
    }

    @Test("FRI#3: third Friday; 5#5 skips months without a fifth Friday")
    func nthWeekday() throws {
        #expect(
            try fires("0 12 ? * FRI#3", after: "2025-01-01T00:00:00Z", count: 3) == [
                "2025-01-17T12:00:00Z", "2025-02-21T12:00:00Z", "2025-03-21T12:00:00Z"
            ])
        #expect(
            try fires("0 0 * * 5#5", after: "2025-01-01T00:00:00Z", count: 4) == [
                "2025-01-31T00:00:00Z", "2025-05-30T00:00:00Z", "2025-08-29T00:00:00Z", "2025-10-31T00:00:00Z"
            ])
    }

    @Test("5L and FRIL: last Friday of the month", arguments: ["0 0 * * 5L", "0 0 * * FRIL"])
    func lastFriday(expression: String) throws {
        #expect(
            try fires(expression, after: "2025-02-01T00:00:00Z", count: 3) == [
                "2025-02-28T00:00:00Z", "2025-03-28T00:00:00Z", "2025-04-25T00:00:00Z"
            ])
    }

    @Test("Day of month and day of week both restricted: either may match")
    func eitherDayMatches() throws {
        // Fridays, plus the 13th (2025-06-13 is itself a Friday).
        #expect(
            try fires("0 0 13 * 5", after: "2025-06-01T00:00:00Z", count: 5) == [
                "2025-06-06T00:00:00Z", "2025-06-13T00:00:00Z", "2025-06-20T00:00:00Z",
                "2025-06-27T00:00:00Z", "2025-07-04T00:00:00Z"
            ])
        #expect(
            try fires("0 0 1 * MON", after: "2025-06-25T00:00:00Z", count: 3) == [
                "2025-06-30T00:00:00Z", "2025-07-01T00:00:00Z", "2025-07-07T00:00:00Z"
            ])
    }

    @Test("Only one day field restricted: it alone decides")
    func oneDayFieldRestricted() throws {
        #expect(
            try fires("0 0 13 * *", after: "2025-06-01T00:00:00Z", count: 2) == [
                "2025-06-13T00:00:00Z", "2025-07-13T00:00:00Z"
            ])
        #expect(
            try fires("0 0 ? * 5", after: "2025-06-01T00:00:00Z", count: 2) == [
                "2025-06-06T00:00:00Z", "2025-06-13T00:00:00Z"
            ])
        #expect(try fires("0 0 13 * ?", after: "2025-06-01T00:00:00Z", count: 1) == ["2025-06-13T00:00:00Z"])
    }

    @Test("1-31 counts as restricted, so with a weekday every day matches")
    func fullRangeRestricts() throws {
        #expect(
            try fires("0 0 1-31 * MON", after: "2025-06-03T12:00:00Z", count: 3) == [
                "2025-06-04T00:00:00Z", "2025-06-05T00:00:00Z", "2025-06-06T00:00:00Z"
            ])
        #expect(try fires("0 0 * * MON", after: "2025-06-03T12:00:00Z", count: 1) == ["2025-06-09T00:00:00Z"])
    }

    @Test("A day field that begins with * counts as unrestricted (cronie): both fields must match")
    func starPrefixIntersects() throws {
        // Odd days that are Mondays, not every odd day plus every Monday.
        #expect(
            try fires("0 0 */2 * MON", after: "2025-01-01T00:00:00Z", count: 3) == [
                "2025-01-13T00:00:00Z", "2025-01-27T00:00:00Z", "2025-02-03T00:00:00Z"
            ])
        #expect(
            try fires("0 0 */1 * MON", after: "2025-06-03T12:00:00Z", count: 2) == [
                "2025-06-09T00:00:00Z", "2025-06-16T00:00:00Z"
            ])
        // The 1st and the 15th when they fall on Sunday, Tuesday, Thursday or Saturday (*/2 in day of week).
        #expect(
            try fires("0 0 1,15 * */2", after: "2025-01-01T00:00:00Z", count: 3) == [
                "2025-02-01T00:00:00Z", "2025-02-15T00:00:00Z", "2025-03-01T00:00:00Z"
            ])
        // Without a leading *, the union still applies.
        #expect(
            try fires("0 0 1 * MON", after: "2025-01-01T00:00:00Z", count: 2) == [
                "2025-01-06T00:00:00Z", "2025-01-13T00:00:00Z"
            ])
    }

    @Test("Sunday as 0 or 7, and day-of-week steps through 7")
    func sundays() throws {
        #expect(
            try fires("0 0 * * 7", after: "2025-06-03T00:00:00Z", count: 2) == [
                "2025-06-08T00:00:00Z", "2025-06-15T00:00:00Z"
            ])
        // 1/3 is Monday, Thursday and Sunday; 2025-01-01 is a Wednesday.
        #expect(
            try fires("0 0 * * 1/3", after: "2025-01-01T00:00:00Z", count: 4) == [
                "2025-01-02T00:00:00Z", "2025-01-05T00:00:00Z", "2025-01-06T00:00:00Z", "2025-01-09T00:00:00Z"
            ])
    }

    @Test(
        "Dates that never occur give nil instead of looping",
        arguments: [
            "0 0 30 2 *", "0 0 31 4 *", "0 0 31 2,4,6,9,11 *", "0 0 30 FEB ?"
        ])
    func impossible(expression: String) throws {
        let cron = try CronExpression(expression)
        #expect(cron.nextDate(after: ISO8601Timestamps.date("2025-01-01T00:00:00Z"), in: .gmt) == nil)
        #expect(Array(cron.nextDates(after: ISO8601Timestamps.date("2025-01-01T00:00:00Z"), in: .gmt)).isEmpty)
    }

    @Test("Leap days are found up to eight years ahead, across 2100")
    func leapDay() throws {
        #expect(
            try fires("0 0 29 2 *", after: "2025-01-01T00:00:00Z", count: 2) == [
                "2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"
            ])
        #expect(try fires("0 0 29 2 *", after: "2096-03-01T00:00:00Z", count: 1) == ["2104-02-29T00:00:00Z"])
    }

    @Test("Offsets with half and quarter hours")
    func fractionalOffsets() throws {
        #expect(
            try fires("30 9 * * *", after: "2025-01-01T00:00:00+05:30", in: "Asia/Kolkata", count: 1) == [
                "2025-01-01T09:30:00+05:30"
            ])
        let nepal = try #require(TimeZone(secondsFromGMT: 5 * 3_600 + 45 * 60))
        let cron = try CronExpression("0 9 * * *")
        let next = cron.nextDate(after: ISO8601Timestamps.date("2025-01-01T00:00:00Z"), in: nepal)
        #expect(next.map { ISO8601Timestamps.text($0, in: nepal) } == "2025-01-01T09:00:00+05:45")
    }

    @Test("Dates far from today work; unusable dates give nil")
    func extremes() throws {
        #expect(try fires("0 12 * * *", after: "1905-06-01T00:00:00Z", count: 1) == ["1905-06-01T12:00:00Z"])
        #expect(try fires("0 12 1 1 *", after: "3000-06-01T00:00:00Z", count: 1) == ["3001-01-01T12:00:00Z"])
        let cron = try CronExpression("* * * * *")
        #expect(cron.nextDate(after: Date(timeIntervalSince1970: .infinity), in: .gmt) == nil)
        #expect(cron.nextDate(after: Date(timeIntervalSince1970: .nan), in: .gmt) == nil)
    }

    @Test("nextDates is lazy and ordered")
    func lazySequence() throws {
        let cron = try CronExpression("*/5 * * * * *")
        let start = ISO8601Timestamps.date("2025-01-01T00:00:00Z")
        let dates = Array(cron.nextDates(after: start, in: .gmt).prefix(1_000))
        #expect(dates.count == 1_000)
        #expect(dates.first == start.addingTimeInterval(5))
        #expect(dates.last == start.addingTimeInterval(5_000))
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("matches reads the wall clock of the given zone")
    func matches() throws {
        let nineInNewYork = ISO8601Timestamps.date("2025-07-01T09:00:00-04:00")
        let cron = try CronExpression("0 9 * * *")
        #expect(cron.matches(nineInNewYork, in: ISO8601Timestamps.zone("America/New_York")))
        #expect(!cron.matches(nineInNewYork, in: .gmt))
        #expect(!cron.matches(nineInNewYork.addingTimeInterval(1), in: ISO8601Timestamps.zone("America/New_York")))
    }

    @Test("Concurrent callers in many zones get the same answers as a single caller")
    func concurrentCallers() async throws {
        let zones = ["UTC", "America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kolkata"]
        let cron = try CronExpression("*/30 1-3 * * *")
        let start = ISO8601Timestamps.date("2025-03-01T00:00:00Z")
        let expected = zones.map { Array(cron.nextDates(after: start, in: ISO8601Timestamps.zone($0)).prefix(200)) }
        let results = await withTaskGroup(of: (Int, [Date]).self) { group in
            for round in 0..<24 {
                group.addTask {
                    let index = round % zones.count
                    return (index, Array(cron.nextDates(after: start, in: ISO8601Timestamps.zone(zones[index])).prefix(200)))
                }
            }
            var collected: [(Int, [Date])] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 24)
        for (index, dates) in results {
            #expect(dates == expected[index], "\(zones[index])")
        }
    }

    @Test("The benchmark workload computes the same times as repeated nextDate calls")
    func workload() throws {
        let expressions = try CronExpression.representativeWorkload.map { try CronExpression($0) }
        let start = ISO8601Timestamps.date("2025-01-01T00:00:00Z")
        let zone = ISO8601Timestamps.zone("America/New_York")
        var expected: Int64 = 0
        for expression in expressions {
            for date in expression.nextDates(after: start, in: zone).prefix(3) {
                expected &+= Int64(date.timeIntervalSince1970)
            }
        }
        let checksum = CronExpression.computeFireTimes(
            cycling: expressions, after: start, in: zone, count: expressions.count * 3)
        #expect(checksum == expected)
        #expect(CronExpression.computeFireTimes(cycling: [], after: start, in: zone, count: 10) == 0)
    }
}

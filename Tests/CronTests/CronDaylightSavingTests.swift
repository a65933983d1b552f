import Foundation
import Testing

@testable import Cron

/// Daylight-saving rules (Vixie cron's): a fixed-time schedule in a skipped
/// hour fires once at the first instant after the gap and fires once in a
/// repeated hour; other schedules skip missing times and fire at every
/// occurrence of repeated ones.
@Suite("Daylight saving time")
struct CronDaylightSavingTests {
    private func fires(_ expression: String, after start: String, in zone: String, count: Int) throws -> [String] {
        try ISO8601Timestamps.fireTimes(expression, after: start, in: zone, count: count)
    }

    // MARK: America/New_York: 2025-03-09 02:00 EST → 03:00 EDT; 2025-11-02 02:00 EDT → 01:00 EST

    @Test("New York spring forward: a fixed time in the gap fires once at 03:00")
    func newYorkFixedInGap() throws {
        #expect(
            try fires("30 2 * * *", after: "2025-03-08T12:00:00-05:00", in: "America/New_York", count: 2) == [
                "2025-03-09T03:00:00-04:00", "2025-03-10T02:30:00-04:00"
            ])
        #expect(
            try fires("30 2 * * *", after: "2025-03-09T01:59:00-05:00", in: "America/New_York", count: 1) == [
                "2025-03-09T03:00:00-04:00"
            ])
        #expect(
            try fires("0 30 2 * * *", after: "2025-03-08T12:00:00-05:00", in: "America/New_York", count: 2) == [
                "2025-03-09T03:00:00-04:00", "2025-03-10T02:30:00-04:00"
            ])
    }

    @Test("New York spring forward: a gap time and 03:00 itself make a single fire")
    func newYorkGapAndGapEnd() throws {
        #expect(
            try fires("0 2,3 * * *", after: "2025-03-08T12:00:00-05:00", in: "America/New_York", count: 3) == [
                "2025-03-09T03:00:00-04:00", "2025-03-10T02:00:00-04:00", "2025-03-10T03:00:00-04:00"
            ])
    }

    @Test("New York spring forward: wildcard schedules skip the missing hour")
    func newYorkWildcardSkipsGap() throws {
        #expect(
            try fires("*/15 * * * *", after: "2025-03-09T01:30:00-05:00", in: "America/New_York", count: 3) == [
                "2025-03-09T01:45:00-05:00", "2025-03-09T03:00:00-04:00", "2025-03-09T03:15:00-04:00"
            ])
        #expect(
            try fires("0 * * * *", after: "2025-03-09T00:30:00-05:00", in: "America/New_York", count: 3) == [
                "2025-03-09T01:00:00-05:00", "2025-03-09T03:00:00-04:00", "2025-03-09T04:00:00-04:00"
            ])
    }

    @Test("New York fall back: a fixed time in the repeated hour fires once")
    func newYorkFixedFiresOnce() throws {
        #expect(
            try fires("30 1 * * *", after: "2025-11-01T12:00:00-04:00", in: "America/New_York", count: 2) == [
                "2025-11-02T01:30:00-04:00", "2025-11-03T01:30:00-05:00"
            ])
        #expect(
            try fires("0 30 1 * * *", after: "2025-11-01T12:00:00-04:00", in: "America/New_York", count: 2) == [
                "2025-11-02T01:30:00-04:00", "2025-11-03T01:30:00-05:00"
            ])
        // Starting inside the second pass does not fire the fixed time again.
        #expect(
            try fires("30 1 * * *", after: "2025-11-02T01:10:00-05:00", in: "America/New_York", count: 1) == [
                "2025-11-03T01:30:00-05:00"
            ])
    }

    @Test("New York fall back: wildcard schedules fire in both passes")
    func newYorkWildcardFiresTwice() throws {
        #expect(
            try fires("*/30 1 * * *", after: "2025-11-02T00:00:00-04:00", in: "America/New_York", count: 5) == [
                "2025-11-02T01:00:00-04:00", "2025-11-02T01:30:00-04:00",
                "2025-11-02T01:00:00-05:00", "2025-11-02T01:30:00-05:00",
                "2025-11-03T01:00:00-05:00"
            ])
        #expect(
            try fires("0 * * * *", after: "2025-11-01T23:30:00-04:00", in: "America/New_York", count: 4) == [
                "2025-11-02T00:00:00-04:00", "2025-11-02T01:00:00-04:00",
                "2025-11-02T01:00:00-05:00", "2025-11-02T02:00:00-05:00"
            ])
        #expect(
            try fires("*/30 1 * * *", after: "2025-11-02T01:10:00-05:00", in: "America/New_York", count: 2) == [
                "2025-11-02T01:30:00-05:00", "2025-11-03T01:00:00-05:00"
            ])
    }

    // MARK: Europe/Paris: 2025-03-30 02:00 CET → 03:00 CEST; 2025-10-26 03:00 CEST → 02:00 CET

    @Test("Paris spring forward: fixed time moves to 03:00, wildcard hour is skipped")
    func parisSpringForward() throws {
        #expect(
            try fires("30 2 * * *", after: "2025-03-29T12:00:00+01:00", in: "Europe/Paris", count: 2) == [
                "2025-03-30T03:00:00+02:00", "2025-03-31T02:30:00+02:00"
            ])
        #expect(
            try fires("*/20 2 * * *", after: "2025-03-29T23:00:00+01:00", in: "Europe/Paris", count: 2) == [
                "2025-03-31T02:00:00+02:00", "2025-03-31T02:20:00+02:00"
            ])
    }

    @Test("Paris fall back: fixed times once, wildcards twice")
    func parisFallBack() throws {
        #expect(
            try fires("30 2 * * *", after: "2025-10-25T12:00:00+02:00", in: "Europe/Paris", count: 2) == [
                "2025-10-26T02:30:00+02:00", "2025-10-27T02:30:00+01:00"
            ])
        #expect(
            try fires("15,45 2 * * *", after: "2025-10-25T12:00:00+02:00", in: "Europe/Paris", count: 3) == [
                "2025-10-26T02:15:00+02:00", "2025-10-26T02:45:00+02:00", "2025-10-27T02:15:00+01:00"
            ])
        #expect(
            try fires("*/30 2 * * *", after: "2025-10-26T00:00:00+02:00", in: "Europe/Paris", count: 5) == [
                "2025-10-26T02:00:00+02:00", "2025-10-26T02:30:00+02:00",
                "2025-10-26T02:00:00+01:00", "2025-10-26T02:30:00+01:00",
                "2025-10-27T02:00:00+01:00"
            ])
    }

    // MARK: Australia/Lord_Howe: 2025-10-05 02:00 → 02:30 (+10:30 → +11); 2025-04-06 02:00 → 01:30 (+11 → +10:30)

    @Test("Lord Howe half-hour spring forward: fixed times in the gap fire at 02:30")
    func lordHoweFixedInGap() throws {
        #expect(
            try fires("15 2 * * *", after: "2025-10-04T12:00:00+10:30", in: "Australia/Lord_Howe", count: 2) == [
                "2025-10-05T02:30:00+11:00", "2025-10-06T02:15:00+11:00"
            ])
        #expect(
            try fires("0 2 * * *", after: "2025-10-04T12:00:00+10:30", in: "Australia/Lord_Howe", count: 1) == [
                "2025-10-05T02:30:00+11:00"
            ])
        #expect(
            try fires("45 2 * * *", after: "2025-10-04T12:00:00+10:30", in: "Australia/Lord_Howe", count: 1) == [
                "2025-10-05T02:45:00+11:00"
            ])
    }

    @Test("Lord Howe half-hour spring forward: wildcard schedules skip 02:00–02:29")
    func lordHoweWildcardSkipsGap() throws {
        #expect(
            try fires("*/15 * * * *", after: "2025-10-05T01:40:00+10:30", in: "Australia/Lord_Howe", count: 3) == [
                "2025-10-05T01:45:00+10:30", "2025-10-05T02:30:00+11:00", "2025-10-05T02:45:00+11:00"
            ])
    }

    @Test("Lord Howe half-hour fall back: 01:30–01:59 repeats")
    func lordHoweFallBack() throws {
        #expect(
            try fires("45 1 * * *", after: "2025-04-05T12:00:00+11:00", in: "Australia/Lord_Howe", count: 2) == [
                "2025-04-06T01:45:00+11:00", "2025-04-07T01:45:00+10:30"
            ])
        #expect(
            try fires("15 1 * * *", after: "2025-04-05T12:00:00+11:00", in: "Australia/Lord_Howe", count: 2) == [
                "2025-04-06T01:15:00+11:00", "2025-04-07T01:15:00+10:30"
            ])
        #expect(
            try fires("*/15 1 * * *", after: "2025-04-06T01:00:00+11:00", in: "Australia/Lord_Howe", count: 6) == [
                "2025-04-06T01:15:00+11:00", "2025-04-06T01:30:00+11:00", "2025-04-06T01:45:00+11:00",
                "2025-04-06T01:30:00+10:30", "2025-04-06T01:45:00+10:30", "2025-04-07T01:00:00+10:30"
            ])
    }

    @Test("Offsets come from the zone's own history, e.g. Samoa skipping 2011-12-30")
    func skippedDay() throws {
        // Pacific/Apia moved from UTC-10 to UTC+14: 2011-12-29 23:59:59 was followed by 2011-12-31 00:00.
        #expect(
            try fires("0 12 * * *", after: "2011-12-29T13:00:00-10:00", in: "Pacific/Apia", count: 1) == [
                "2011-12-31T00:00:00+14:00"
            ])
        #expect(
            try fires("0 */6 * * *", after: "2011-12-29T19:00:00-10:00", in: "Pacific/Apia", count: 2) == [
                "2011-12-31T00:00:00+14:00", "2011-12-31T06:00:00+14:00"
            ])
    }
}

import Foundation
import Testing

struct CronCommandTests {
    @Test func nextPrintsFireTimesWithOffsetsAcrossTheSpringGap() throws {
        let result = try ShortcutsBinary().run([
            "cron", "next", "30 2 * * *", "--count", "3", "--from", "2026-03-07T12:00:00Z", "--time-zone", "America/New_York",
        ])
        #expect(result.status == 0)
        #expect(result.output == "2026-03-08T03:00:00-04:00\n2026-03-09T02:30:00-04:00\n2026-03-10T02:30:00-04:00\n")
    }

    @Test func explainDescribesTheScheduleInWords() throws {
        #expect(try ShortcutsBinary().run(["cron", "explain", "0 9 * * MON-FRI"]).output == "At 09:00, Monday through Friday\n")
    }

    @Test func anInvalidExpressionPointsAtTheField() throws {
        let result = try ShortcutsBinary().run(["cron", "next", "0 9 32 * *"])
        #expect(result.status == 1)
        #expect(result.error == "error: field 3 (day of month): 32 is out of range 1–31\n  0 9 32 * *\n      ^\n")
    }
}

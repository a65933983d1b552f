import Foundation
import Testing

@Suite
struct CronCommandTests {
    @Test func nextPrintsFireTimesWithOffsetsAcrossTheSpringGap() async throws {
        let result = await Command.run([
            "cron", "next", "30 2 * * *", "--count", "3", "--from", "2026-03-07T12:00:00Z", "--time-zone", "America/New_York"
        ])
        #expect(result.status == 0)
        #expect(result.output == "2026-03-08T03:00:00-04:00\n2026-03-09T02:30:00-04:00\n2026-03-10T02:30:00-04:00\n")
    }

    @Test func explainDescribesTheScheduleInWords() async throws {
        #expect(await Command.run(["cron", "explain", "0 9 * * MON-FRI"]).output == "At 09:00, Monday through Friday\n")
    }

    @Test func anInvalidExpressionPointsAtTheFieldWithTheMessageOfValidate() async throws {
        let result = await Command.run(["cron", "next", "0 9 32 * *"])
        #expect(result.status == 1)
        #expect(result.error == "error: invalid schedule: field 3 (day of month): 32 is out of range 1–31\n  0 9 32 * *\n      ^~\n")
    }

    @Test(
        "A schedule that never fires is an error, in next and explain",
        arguments: [
            "0 0 31 2 *", "0 0 * 2 1#5", "0 0 L-30 2 *", "0 0 31W 2 *"
        ])
    func neverFires(expression: String) async throws {
        let shortcuts = try InProcessShortcuts()
        for arguments in [["cron", "next", expression, "--count", "3"], ["cron", "explain", expression]] {
            let result = await shortcuts.run(arguments)
            #expect(result.status == 1)
            #expect(result.output == "")
            let underline = "^" + String(repeating: "~", count: expression.count - 1)
            #expect(
                result.error == """
                    error: schedule '\(expression)' never fires
                      \(expression)
                      \(underline)
                    help: no time matches every field within eight years; check the day of month against the month

                    """)
        }
    }

    @Test("--count is bounded: 1 to 1000", arguments: ["0", "1001", "9223372036854775807"])
    func countBounded(count: String) async throws {
        let result = await Command.run(["cron", "next", "* * * * *", "--count", count])
        #expect(result.status == 64)
        #expect(result.error.contains("--count must be between 1 and 1000"))
    }

    @Test func countOfAThousandPrintsAThousand() async throws {
        #expect(await Command.run(["cron", "next", "* * * * *", "--count", "1000"]).output.split(separator: "\n").count == 1000)
    }

    @Test func rebootRunsAtStartRatherThanAtTimes() async throws {
        let shortcuts = try InProcessShortcuts()
        let next = await shortcuts.run(["cron", "next", "@reboot"])
        #expect(next.status == 0)
        #expect(next.output == "@reboot: runs once at start, each time the daemon starts\n")
        #expect(await shortcuts.run(["cron", "explain", "@reboot"]).output == "Once at start, each time the daemon starts\n")
    }

    @Test func jsonNestsValues() async throws {
        let shortcuts = try InProcessShortcuts()
        let next = await shortcuts.run([
            "cron", "next", "0 0 */2 * MON", "--from", "2025-01-01T00:00:00Z", "--time-zone", "UTC",
            "--count", "2", "--json"
        ])
        let object = try #require(JSONSerialization.jsonObject(with: Data(next.output.utf8)) as? [String: Any])
        #expect(object["fireTimes"] as? [String] == ["2025-01-13T00:00:00Z", "2025-01-27T00:00:00Z"])
        #expect(object["timeZone"] as? String == "UTC")
        #expect(object["runsAtStart"] as? Bool == false)
        let explain = await shortcuts.run(["cron", "explain", "0 9 * * MON-FRI", "--json"])
        let explanation = try #require(JSONSerialization.jsonObject(with: Data(explain.output.utf8)) as? [String: Any])
        #expect(explanation["explanation"] as? String == "At 09:00, Monday through Friday")
        #expect(explanation["isFixedTime"] as? Bool == true)
    }
}

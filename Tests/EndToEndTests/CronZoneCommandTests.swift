import Foundation
import Testing

/// `cron` in a process whose `TZ` the test sets: the zone a schedule is shown in when none is
/// given is the process's (the other `cron` cases run in process, in ShortcutsCLITests).
@Suite(.endToEnd)
struct CronZoneCommandTests {}

extension CronZoneCommandTests {
    @Test("The zero-offset zone is shown as UTC, not GMT; a zone at offset zero only in winter keeps its name")
    func universalTimeIsCalledUTC() async throws {
        let shortcuts = try ShortcutsBinary()
        for zone in ["UTC", "Etc/UTC", "GMT"] {
            let next = try await shortcuts.run(
                ["cron", "next", "0 9 * * *", "--from", "2026-01-01T00:00:00Z", "--count", "1", "--json"],
                environment: ["TZ": zone])
            #expect(next.status == 0, "\(next.error)")
            let object = try #require(JSONSerialization.jsonObject(with: Data(next.output.utf8)) as? [String: Any])
            #expect(object["timeZone"] as? String == "UTC", "TZ=\(zone)")
        }
        let london = try await shortcuts.run(
            ["cron", "next", "0 9 * * *", "--from", "2026-01-01T00:00:00Z", "--count", "1", "--json"],
            environment: ["TZ": "Europe/London"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(london.output.utf8)) as? [String: Any])
        #expect(object["timeZone"] as? String == "Europe/London")
    }
}

import Foundation
import Testing

@testable import Cron

/// Compares fire times with Fixtures/cron-oracle.json, produced independently
/// by Oracle/generate_cron_oracle.py (croniter where its semantics match the
/// documented rules, a brute-force wall-clock scan otherwise).
@Suite("Oracle comparison")
struct CronOracleTests {
    struct Fixture: Decodable {
        let seed: Int
        let fireTimesPerCase: Int
        let cases: [Case]
    }

    struct Case: Decodable {
        let expression: String
        let timeZone: String
        let start: Int64
        let source: String
        let fireTimes: [Int64]
    }

    static func loadFixture() throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/cron-oracle.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    @Test("Next five fire times agree with the oracle for every fixture case")
    func matchesOracle() throws {
        let fixture = try Self.loadFixture()
        var mismatches: [String] = []
        var compared = 0
        var expressions = Set<String>()
        var croniterExpressions = Set<String>()
        var zones = Set<String>()
        for oracleCase in fixture.cases {
            let zone = ISO8601Timestamps.zone(oracleCase.timeZone)
            let expression: CronExpression
            do {
                expression = try CronExpression(oracleCase.expression)
            } catch {
                mismatches.append("\(oracleCase.expression): rejected: \(error)")
                continue
            }
            let start = Date(timeIntervalSince1970: TimeInterval(oracleCase.start))
            let actual = expression.nextDates(after: start, in: zone)
                .prefix(fixture.fireTimesPerCase)
                .map { Int64($0.timeIntervalSince1970) }
            compared += 1
            expressions.insert(oracleCase.expression)
            zones.insert(oracleCase.timeZone)
            if oracleCase.source == "croniter" { croniterExpressions.insert(oracleCase.expression) }
            if actual != oracleCase.fireTimes {
                let render = { (values: [Int64]) in
                    values.map { ISO8601Timestamps.text(Date(timeIntervalSince1970: TimeInterval($0)), in: zone) }
                }
                mismatches.append(
                    "\(oracleCase.expression) in \(oracleCase.timeZone) after "
                        + "\(ISO8601Timestamps.text(start, in: zone)) [\(oracleCase.source)]\n"
                        + "  expected \(render(oracleCase.fireTimes))\n  actual   \(render(actual))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(10).joined(separator: "\n"))")
        #expect(compared == fixture.cases.count && compared >= 2_000)
        #expect(expressions.count >= 1_000, "only \(expressions.count) distinct expressions compared")
        #expect(croniterExpressions.count >= 800, "only \(croniterExpressions.count) expressions checked by croniter")
        #expect(zones == ["UTC", "America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kolkata"])
    }
}

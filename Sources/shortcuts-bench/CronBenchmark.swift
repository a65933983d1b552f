import AutomationKit
import Cron
import Foundation

/// Measures CronExpression.nextDate against a naive minute-by-minute scan in the same run.
enum CronBenchmark {
    static func run(arguments: [String]) {
        let calls = arguments.first.flatMap(Int.init) ?? 1_000_000
        let expressions: [CronExpression]
        do {
            expressions = try CronExpression.representativeWorkload.map { try CronExpression($0) }
        } catch {
            print("invalid workload expression: \(error)")
            exit(1)
        }
        let start = Date(timeIntervalSince1970: 1_700_000_000)

        func nanoseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        }

        /// The straightforward way: step through local time one minute (or second)
        /// at a time with `Calendar.date(byAdding:)` until every field matches.
        func naiveNextDate(_ expression: CronExpression, after date: Date, calendar: Calendar) -> Date? {
            let unit: Calendar.Component = expression.hasSeconds ? .second : .minute
            guard var candidate = calendar.dateInterval(of: unit, for: date)?.end else { return nil }
            let limit = date.addingTimeInterval(8 * 366 * 86_400)
            while candidate <= limit {
                if expression.matches(candidate, in: calendar.timeZone) { return candidate }
                guard let next = calendar.date(byAdding: unit, value: 1, to: candidate) else { return nil }
                candidate = next
            }
            return nil
        }

        for zoneIdentifier in ["UTC", "America/New_York"] {
            guard let zone = TimeZone(identifier: zoneIdentifier) else { continue }
            // Warm up (fills the time zone cache), then measure.
            _ = CronExpression.computeFireTimes(cycling: expressions, after: start, in: zone, count: 10_000)
            let clock = ContinuousClock()
            let began = clock.now
            let checksum = CronExpression.computeFireTimes(cycling: expressions, after: start, in: zone, count: calls)
            let fast = nanoseconds(clock.now - began) / Double(calls)

            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let naiveCalls = 100
            var cursors = Array(repeating: start, count: expressions.count)
            var naiveResults: [Date?] = []
            let naiveBegan = clock.now
            for call in 0..<naiveCalls {
                let index = call % expressions.count
                let next = naiveNextDate(expressions[index], after: cursors[index], calendar: calendar)
                naiveResults.append(next)
                if let next { cursors[index] = next }
            }
            let naive = nanoseconds(clock.now - naiveBegan) / Double(naiveCalls)

            // The same calls through nextDate, to confirm both searches agree.
            cursors = Array(repeating: start, count: expressions.count)
            var agreeing = 0
            for call in 0..<naiveCalls {
                let index = call % expressions.count
                let next = expressions[index].nextDate(after: cursors[index], in: zone)
                if next == naiveResults[call] { agreeing += 1 }
                if let next { cursors[index] = next }
            }
            print(
                """
                \(zoneIdentifier): nextDate \(String(format: "%.0f", fast)) ns/call over \(calls) calls \
                (checksum \(checksum)); naive minute scan \(String(format: "%.0f", naive)) ns/call over \
                \(naiveCalls) calls, same result in \(agreeing)/\(naiveCalls); \
                speed-up ×\(String(format: "%.0f", naive / fast))
                """)
        }
    }
}

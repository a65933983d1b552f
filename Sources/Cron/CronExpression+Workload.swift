import Foundation

extension CronExpression {
    /// A varied set of expressions for measuring ``nextDate(after:in:)``:
    /// wildcards, steps, fixed times, names, seconds and the Quartz extensions.
    ///
    /// ```swift
    /// let mix = try CronExpression.representativeWorkload.map { try CronExpression($0) }
    /// ```
    public static let representativeWorkload: [String] = [
        "*/5 * * * *",
        "0 9 * * 1-5",
        "30 2 L * *",
        "0 0 1 1 *",
        "15 10 ? * FRI#3",
        "*/15 9-17 * * MON-FRI",
        "@daily",
        "0 12 15W * *",
        "0 30 8 * * 1-5",
        "0 0 * * 5L"
    ]

    /// Computes `count` fire times in a row, cycling through `expressions`, and
    /// returns a checksum so an optimizing compiler cannot drop the work.
    ///
    /// Each expression continues from its own previous fire time, so the calls
    /// walk forward through the calendar the way a scheduler would; once an
    /// expression gets ten years past `start` (or stops firing) it starts over.
    ///
    /// ```swift
    /// let mix = try CronExpression.representativeWorkload.map { try CronExpression($0) }
    /// let start = ContinuousClock.now
    /// let checksum = CronExpression.computeFireTimes(
    ///     cycling: mix, after: Date(timeIntervalSince1970: 1_700_000_000),
    ///     in: TimeZone(identifier: "America/New_York") ?? .gmt, count: 1_000_000)
    /// print(ContinuousClock.now - start, checksum)
    /// ```
    ///
    /// - Parameters:
    ///   - expressions: The expressions to cycle through; empty means no work.
    ///   - start: The instant every expression starts searching from.
    ///   - timeZone: The zone the expressions are evaluated in.
    ///   - count: The total number of ``nextDate(after:in:)`` calls.
    /// - Returns: The sum of the fire times in whole seconds since 1970.
    public static func computeFireTimes(
        cycling expressions: [CronExpression], after start: Date, in timeZone: TimeZone, count: Int
    ) -> Int64 {
        guard !expressions.isEmpty else { return 0 }
        var cursors = Array(repeating: start, count: expressions.count)
        var checksum: Int64 = 0
        var index = 0
        let horizon = start.addingTimeInterval(10 * 365.25 * 86_400)
        for _ in 0..<max(0, count) {
            if let next = expressions[index].nextDate(after: cursors[index], in: timeZone) {
                cursors[index] = next < horizon ? next : start
                checksum &+= Int64(next.timeIntervalSince1970)
            } else {
                cursors[index] = start
            }
            index += 1
            if index == expressions.count { index = 0 }
        }
        return checksum
    }
}

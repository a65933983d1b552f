#if Web
    import AutomationKit
    import Foundation
    import WorkflowKit

    /// `/charts`: runs per day by status over the last days (`?days=14`, 1 to 90), and how late
    /// automation runs started after their due time over the claims kept (the last day).
    struct ChartsPage: Sendable {
        /// The lateness buckets, in seconds: each is [lower, upper).
        static let latenessBuckets: [(label: String, upper: Double)] = [
            ("under 0.1 s", 0.1), ("0.1–0.5 s", 0.5), ("0.5–1 s", 1), ("1–2 s", 2), ("2–5 s", 5), ("5–10 s", 10), ("10–30 s", 30),
            ("30–60 s", 60), ("1 min or more", .infinity)
        ]

        var chrome: PageChrome
        var days: Int
        var dayChoices: [Choice]
        var runsPerDay: StackedBarChart
        var seriesNames: [String]
        var lateness: StackedBarChart
        var latenessCount: Int
        var latenessMedian: String?
        var latenessP95: String?
        var latenessWindow: String

        struct Choice: Sendable {
            var value: Int
            var isSelected: Bool
        }

        static func make(fields: FormFields, site: DashboardSite, context: DashboardContext, now: Date? = nil) async throws -> ChartsPage {
            let now = now ?? site.configuration.clock.now()
            var days = 14
            if let text = fields.nonEmpty("days") {
                guard let value = Int(text), (1...90).contains(value) else {
                    throw PageError(.badRequest, "'\(text)' is not a number of days from 1 to 90")
                }
                days = value
            }
            let configuration = site.configuration
            let times = site.times
            let calendar = {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = configuration.timeZone
                return calendar
            }()
            let today = calendar.startOfDay(for: now)
            let starts = (0..<days).reversed().compactMap { calendar.date(byAdding: .day, value: -$0, to: today) }
            let statuses = RunHistory.Status.shownOrder.reversed().map { $0 }
            let (counts, claims) = try await offload {
                (
                    try starts.map { start in
                        try configuration.history.statusCounts(from: start, to: calendar.date(byAdding: .day, value: 1, to: start) ?? now)
                    },
                    try configuration.automations.claims(dueFrom: now.addingTimeInterval(-86_400), to: now)
                )
            }
            let runsPerDay = StackedBarChart(
                labels: starts.map(times.day), series: statuses.map(\.rawValue), values: counts.map { day in statuses.map { day[$0] ?? 0 } })
            let lateness = claims.compactMap { claim in claim.startedAt.map { max($0 - Double(claim.dueTime), 0) } }.sorted()
            var bucketCounts = Array(repeating: 0, count: latenessBuckets.count)
            for value in lateness {
                bucketCounts[latenessBuckets.firstIndex { value < $0.upper } ?? latenessBuckets.count - 1] += 1
            }
            func percentile(_ fraction: Double) -> String? {
                guard !lateness.isEmpty else { return nil }
                return times.duration(lateness[min(lateness.count - 1, Int((Double(lateness.count) * fraction).rounded(.down)))])
            }
            return ChartsPage(
                chrome: PageChrome(title: "Charts", section: .charts, context: context), days: days,
                dayChoices: [7, 14, 30, 90].map { Choice(value: $0, isSelected: $0 == days) }, runsPerDay: runsPerDay,
                seriesNames: statuses.map(\.rawValue),
                lateness: StackedBarChart(labels: latenessBuckets.map(\.label), series: ["late"], values: bucketCounts.map { [$0] }),
                latenessCount: lateness.count, latenessMedian: percentile(0.5), latenessP95: percentile(0.95),
                latenessWindow: "\(times.shown(now.addingTimeInterval(-86_400))) to \(times.shown(now))")
        }
    }
#endif

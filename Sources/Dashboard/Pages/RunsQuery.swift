#if Web
    import Foundation
    import IntentKit
    import WorkflowKit

    /// The filters of the runs page, read from its query (`/runs?status=failed&since=7d&page=2`):
    /// status, workflow, trigger, a start and an end time, and the page.
    ///
    /// Times are what `shortcuts runs list --since` takes (`2026-03-01`, `2026-03-01T09:00:00Z`,
    /// `7d`), or a `datetime-local` value in the dashboard's time zone.
    struct RunsQuery: Sendable {
        /// How many runs a page lists.
        static let pageSize = 50

        var status: RunHistory.Status?
        var workflow: String?
        var trigger: String?
        var since: Date?
        var until: Date?
        var page = 1
        /// The query as given, to fill the form again.
        var fields: FormFields

        /// The filters of a query.
        ///
        /// - Throws: ``PageError`` 400 saying which value is wrong and what it should be.
        init(_ fields: FormFields, times: TimeText, now: Date? = nil) throws(PageError) {
            let now = now ?? times.clock.now()
            self.fields = fields
            if let text = fields.nonEmpty("status") {
                guard let status = RunHistory.Status(rawValue: text) else {
                    let names = RunHistory.Status.shownOrder.map(\.rawValue)
                    var help = ["a status is one of " + names.joined(separator: ", ")]
                    if let nearest = NameSuggestion.nearest(to: text, among: names) { help.insert("did you mean '\(nearest)'?", at: 0) }
                    throw PageError(.badRequest, "unknown status '\(text)'", help: help)
                }
                self.status = status
            }
            workflow = fields.nonEmpty("workflow")
            trigger = fields.nonEmpty("trigger")
            for (name, keyPath) in [("since", \RunsQuery.since), ("until", \RunsQuery.until)] {
                guard let text = fields.nonEmpty(name) else { continue }
                guard let date = times.parse(text, now: now) else {
                    throw PageError(
                        .badRequest, "'\(text)' in \(name) is not a time",
                        help: ["write a date (2026-03-01), a date and time (2026-03-01T09:00), or a duration ago (7d, 12h, 30m)"])
                }
                self[keyPath: keyPath] = date
            }
            if let since, let until, since >= until {
                throw PageError(.badRequest, "since (\(times.shown(since))) is not before until (\(times.shown(until)))")
            }
            if let text = fields.nonEmpty("page") {
                guard let page = Int(text), page >= 1, page <= 100_000 else {
                    throw PageError(.badRequest, "'\(text)' is not a page number from 1")
                }
                self.page = page
            }
        }

        /// The history's filter for this page, asking one run more than a page holds, to know
        /// whether an older page follows.
        var filter: RunHistory.Filter {
            RunHistory.Filter(
                status: status, workflow: workflow, trigger: trigger, since: since, until: until, limit: Self.pageSize + 1,
                offset: (page - 1) * Self.pageSize)
        }

        /// Whether runs that start now could belong on this page (so live updates add them).
        var takesNewRuns: Bool { page == 1 && until == nil }

        /// The link to another page of the same filters.
        func href(page: Int) -> String {
            var parts: [String] = []
            for name in ["status", "workflow", "trigger", "since", "until"] {
                if let value = fields.nonEmpty(name) {
                    parts.append(name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value))
                }
            }
            if page > 1 { parts.append("page=\(page)") }
            return "/runs" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
        }
    }
#endif

#if Web
    import AutomationKit
    import Foundation
    import WorkflowKit

    /// `/`: the automations of the folder (failing ones first) with their triggers, next and last
    /// due times and how the last went; the files with errors and their first error; and the runs
    /// of the last day by status, with the latest runs.
    struct OverviewPage: Sendable {
        /// An automation's row.
        struct AutomationRow: Sendable {
            var name: String
            var href: String
            var fileName: String
            /// Its triggers in words: the schedule with its zone, the webhook, the watch.
            var triggers: [String]
            var next: String
            var nextISO: String?
            var lastDue: String
            var lastStatus: String?
            var lastRunHref: String?
            var isFailing: Bool
        }

        /// A file that does not load or validate, with its first error.
        struct ProblemRow: Sendable {
            var file: String
            var href: String
            var location: String
            var message: String
            /// How many more errors the file has, when it has more.
            var more: Int?
        }

        var chrome: PageChrome
        var folder: String
        var counts: [StatusCount]
        var recentRuns: [RunRow]
        var hasRecentRuns: Bool
        var automations: [AutomationRow]
        var hasAutomations: Bool
        var problems: [ProblemRow]
        var hasProblems: Bool
        var blankRun = RunRow.blank

        static func make(site: DashboardSite, context: DashboardContext, now: Date? = nil) async throws -> OverviewPage {
            let now = now ?? site.configuration.clock.now()
            let configuration = site.configuration
            let (summaries, checks, counts, recent) = try await offload {
                let folder = AutomationFolder.load(configuration.workflows, catalog: configuration.catalog)
                let files = WorkflowFiles(directory: configuration.workflows)
                let checks = files.names.map { name in
                    WorkflowFileCheck(
                        contentsOf: files.directory.appendingPathComponent(name), catalog: configuration.catalog, secrets: configuration.secrets)
                }
                return (
                    try folder.summaries(store: configuration.automations, history: configuration.history, now: now), checks,
                    try configuration.history.statusCounts(from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(1)),
                    try configuration.history.runs(RunHistory.Filter(limit: 10))
                )
            }
            let times = site.times
            let mask = site.mask
            let rows = summaries.enumerated().sorted { ($0.element.isFailing ? 0 : 1, $0.offset) < ($1.element.isFailing ? 0 : 1, $1.offset) }
                .map(\.element).map { summary in
                    let fileName = URL(fileURLWithPath: summary.file).lastPathComponent
                    let next =
                        summary.next.map(times.shown)
                        ?? (!summary.enabled ? "disabled" : summary.runsAtStart ? "when a daemon starts" : summary.schedule == nil ? "—" : "never")
                    return AutomationRow(
                        name: summary.name, href: WorkflowFiles.href(fileName), fileName: fileName, triggers: summary.triggerPhrases, next: next,
                        nextISO: summary.next.map(times.iso),
                        lastDue: summary.lastActivity.map { times.shown($0.at) } ?? "—", lastStatus: summary.lastActivity?.status,
                        lastRunHref: summary.lastActivity?.runID.map { "/runs/" + $0 }, isFailing: summary.isFailing)
                }
            let problems = checks.compactMap { check -> ProblemRow? in
                let errors = check.diagnostics.filter { $0.severity == .error }
                guard let first = errors.first else { return nil }
                let file = first.location.file
                return ProblemRow(
                    file: file, href: WorkflowFiles.href(URL(fileURLWithPath: file).lastPathComponent),
                    location: "\(first.location.line):\(first.location.column)", message: mask.mask(first.message),
                    more: errors.count > 1 ? errors.count - 1 : nil)
            }
            let runs = recent.map { mask.mask($0) }.map { RunRow($0, times: times) }
            return OverviewPage(
                chrome: PageChrome(title: "Overview", section: .overview, context: context, live: .overview),
                folder: configuration.workflows.relativePath, counts: StatusCount.all(counts), recentRuns: runs, hasRecentRuns: !runs.isEmpty,
                automations: rows, hasAutomations: !rows.isEmpty, problems: problems, hasProblems: !problems.isEmpty)
        }
    }
#endif

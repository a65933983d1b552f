#if Web
    import Foundation
    import WorkflowKit

    /// `/runs`: the runs, newest first, filtered by status, workflow, trigger and time, fifty a
    /// page. Runs that start or end while the page is open appear and change without a reload.
    struct RunsPage: Sendable {
        struct Choice: Sendable {
            var value: String
            var isSelected: Bool
        }

        var chrome: PageChrome
        var statuses: [Choice]
        var triggers: [Choice]
        var workflows: [String]
        var workflow: String
        var trigger: String
        var since: String
        var until: String
        var filterStatus: String
        var error: String?
        var errorHelp: [String]
        var runs: [RunRow]
        var hasRuns: Bool
        var isFiltered: Bool
        var takesNewRuns: Bool
        var newerHref: String?
        var olderHref: String?
        var page: Int
        var blankRun = RunRow.blank

        /// The page of a query, or of a query with an error (then without runs).
        static func make(parsed: Result<RunsQuery, PageError>, fields: FormFields, site: DashboardSite, context: DashboardContext) async throws
            -> RunsPage
        {
            let configuration = site.configuration
            let workflows = try await offload { WorkflowFiles(directory: configuration.workflows).names }
            var runs: [RunHistory.Run] = []
            var query: RunsQuery?
            var failure: PageError?
            switch parsed {
            case .success(let parsed):
                query = parsed
                let filter = parsed.filter
                runs = try await offload { try configuration.history.runs(filter) }
            case .failure(let error):
                failure = error
            }
            let hasOlder = runs.count > RunsQuery.pageSize
            runs = Array(runs.prefix(RunsQuery.pageSize))
            let times = site.times
            let mask = site.mask
            let status = fields.nonEmpty("status") ?? ""
            let trigger = fields.nonEmpty("trigger") ?? ""
            var triggerNames = ["manual", "automation", "webhook", "file", "dashboard", "mcp"]
            if !trigger.isEmpty, !triggerNames.contains(trigger) { triggerNames.append(trigger) }
            let page = query?.page ?? 1
            return RunsPage(
                chrome: PageChrome(title: "Runs", section: .runs, context: context, live: .runs),
                statuses: RunHistory.Status.shownOrder.map { Choice(value: $0.rawValue, isSelected: $0.rawValue == status) },
                triggers: triggerNames.map { Choice(value: $0, isSelected: $0 == trigger) },
                workflows: workflows, workflow: fields.nonEmpty("workflow") ?? "", trigger: trigger, since: fields.nonEmpty("since") ?? "",
                until: fields.nonEmpty("until") ?? "", filterStatus: status, error: failure?.message, errorHelp: failure?.help ?? [],
                runs: runs.map { RunRow(mask.mask($0), times: times) }, hasRuns: !runs.isEmpty,
                isFiltered: ["status", "workflow", "trigger", "since", "until"].contains { fields.nonEmpty($0) != nil },
                takesNewRuns: query?.takesNewRuns ?? false, newerHref: page > 1 ? query?.href(page: page - 1) : nil,
                olderHref: hasOlder ? query?.href(page: page + 1) : nil, page: page)
        }
    }
#endif

#if Web
    /// What the layout around every page shows: the title, the navigation with the current section
    /// marked, the form token, whether the viewer may sign out, and what live updates the page takes.
    struct PageChrome: Sendable {
        /// The dashboard's sections, one per navigation link.
        enum Section: Sendable {
            case overview, workflows, runs, charts, search, intents, none
        }

        /// The kinds of live updates a page takes from `/events`.
        enum Live: String, Sendable {
            case overview, runs, run
        }

        var title: String
        /// The tool's name, for the commands pages suggest.
        var commandName: String
        var csrf: String
        var canSignOut: Bool
        /// The page's live updates (the `data-live` of its body), if any.
        var live: String?
        /// The run a run page shows (the `data-run-id` of its body).
        var runID: String?
        var isOverview: Bool
        var isWorkflows: Bool
        var isRuns: Bool
        var isCharts: Bool
        var isSearch: Bool
        var isIntents: Bool

        init(title: String, section: Section, context: DashboardContext, live: Live? = nil, runID: String? = nil) {
            self.title = title
            commandName = context.commandName
            csrf = context.csrfToken
            canSignOut = context.hasToken && context.isSignedIn
            self.live = live?.rawValue
            self.runID = runID
            isOverview = section == .overview
            isWorkflows = section == .workflows
            isRuns = section == .runs
            isCharts = section == .charts
            isSearch = section == .search
            isIntents = section == .intents
        }
    }
#endif

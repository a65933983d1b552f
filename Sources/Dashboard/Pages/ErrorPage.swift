#if Web
    /// The page of an error: the status, what went wrong and how to fix it.
    struct ErrorPage: Sendable {
        var chrome: PageChrome
        var status: Int
        var reason: String
        var message: String
        var help: [String]

        init(_ error: PageError, context: DashboardContext) {
            chrome = PageChrome(title: "\(error.status.code) \(error.status.reasonPhrase)", section: .none, context: context)
            status = error.status.code
            reason = error.status.reasonPhrase
            message = error.message
            help = error.help
        }
    }
#endif

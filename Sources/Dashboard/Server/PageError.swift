#if Web
    import Hummingbird

    /// A request the dashboard answers with an error page: its status, what went wrong and how to
    /// fix it. Refusals (401, 403, 413, 429) are logged as warnings with their reason.
    ///
    /// ```swift
    /// throw PageError(.notFound, "no run 'abc'", help: ["the runs page lists recent runs"])
    /// ```
    struct PageError: Error, CustomStringConvertible {
        var status: HTTPResponse.Status
        var message: String
        var help: [String] = []
        /// Headers to add to the error page (`Retry-After`, `WWW-Authenticate`).
        var headers: HTTPFields = [:]
        /// The sign-in form instead of the usual error page (401 on a page).
        var showsSignIn = false
        /// Whether to answer with a line of text rather than a page: for programs (`/metrics`,
        /// `/events`), which read no HTML.
        var isPlainText = false
        /// The page to return to after signing in.
        var returnPath = "/"

        init(_ status: HTTPResponse.Status, _ message: String, help: [String] = []) {
            self.status = status
            self.message = message
            self.help = help
        }

        var description: String { "\(status.code) \(message)" }

        /// Whether it refuses the request (401, 403, 413, 429), as opposed to a missing page or a
        /// bad value.
        var isRefusal: Bool { [401, 403, 413, 429].contains(status.code) }
    }
#endif

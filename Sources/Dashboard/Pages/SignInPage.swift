#if Web
    import Hummingbird

    /// The sign-in form of a dashboard with a token, and its answer: a session cookie and a
    /// redirect back to the page asked for.
    struct SignInPage: Sendable {
        var chrome: PageChrome
        /// Where to go once signed in: a path of this site.
        var returnPath: String
        /// Why the last attempt failed, if it did.
        var message: String?

        init(returnPath: String, message: String?, context: DashboardContext) {
            chrome = PageChrome(title: "Sign in", section: .none, context: context)
            self.returnPath = Self.safeReturnPath(returnPath)
            self.message = message
        }

        /// A return path that stays on this site: a path beginning with one `/`, else `/`.
        static func safeReturnPath(_ path: String?) -> String {
            guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"), !path.contains("\n") else { return "/" }
            return path
        }

        /// `POST /sign-in`: checks the token (in constant time) and opens a session.
        static func signIn(_ request: Request, context: DashboardContext, site: DashboardSite) throws -> Response {
            let returnPath = safeReturnPath(context.form["return"])
            guard let token = site.configuration.token else { return .seeOther(returnPath) }
            if let wait = site.throttle.delay(for: context.remoteAddress) {
                var error = PageError(.tooManyRequests, "too many wrong tokens from \(context.remoteAddress)", help: ["try again in \(wait) s"])
                error.headers[.retryAfter] = String(wait)
                throw error
            }
            guard let given = context.form["token"], SecretComparison.matches(given, expected: token) else {
                site.throttle.recordFailure(from: context.remoteAddress)
                site.logger.warning("refused POST /sign-in from \(context.remoteAddress): 401 wrong token")
                let page = SignInPage(returnPath: returnPath, message: "That is not the dashboard's token.", context: context)
                return .html(site.templates.render(page, template: "sign-in"), status: .unauthorized)
            }
            var response = Response.seeOther(returnPath)
            response.setCookie(DashboardCookies.session(site.sessions.open()))
            return response
        }

        /// `POST /sign-out`: closes the session.
        static func signOut(_ request: Request, site: DashboardSite) -> Response {
            if let session = request.cookies[DashboardCookies.session]?.value { site.sessions.close(session) }
            var response = Response.seeOther("/")
            response.setCookie(DashboardCookies.endedSession())
            return response
        }
    }
#endif

#if Web
    import Hummingbird

    /// Lets through only the requests that carry the token, when the dashboard has one:
    /// `Authorization: Bearer TOKEN` (for programs: `/metrics`, `curl`), or the session cookie set
    /// by the sign-in form (for browsers). The token is compared in constant time.
    ///
    /// Others get 401: pages show the sign-in form, programs a line of text. A client that gave a
    /// wrong token ten times in a minute gets 429 until the minute has passed.
    struct AccessMiddleware: RouterMiddleware {
        typealias Context = DashboardContext

        let site: DashboardSite
        /// Whether refusals show the sign-in form (pages) rather than a line of text (`/metrics`).
        var showsSignIn = true

        /// The pages' paths that programs read (the pages' script reads `/events`): refused with text.
        static let programPaths: Set<String> = ["/events"]

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            guard let token = site.configuration.token else {
                context.isSignedIn = true
                return try await next(request, context)
            }
            context.hasToken = true
            if let wait = site.throttle.delay(for: context.remoteAddress) {
                var error = PageError(
                    .tooManyRequests, "too many wrong tokens from \(context.remoteAddress)", help: ["try again in \(wait) s"])
                error.headers[.retryAfter] = String(wait)
                error.isPlainText = !showsSignIn || Self.programPaths.contains(request.uri.path)
                throw error
            }
            if let authorization = request.headers[.authorization] {
                let parts = authorization.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "bearer", SecretComparison.matches(String(parts[1]), expected: token) {
                    context.isSignedIn = true
                    return try await next(request, context)
                }
                site.throttle.recordFailure(from: context.remoteAddress)
                throw refusal(request, reason: "the Authorization header does not carry the dashboard's token")
            }
            if let session = request.cookies[DashboardCookies.session]?.value, site.sessions.isOpen(session) {
                context.isSignedIn = true
                return try await next(request, context)
            }
            throw refusal(request, reason: "the request carries no token and no signed-in session")
        }

        private func refusal(_ request: Request, reason: String) -> PageError {
            var error = PageError(
                .unauthorized, "sign in with the dashboard's token: \(reason)",
                help: ["send Authorization: Bearer TOKEN, or sign in with the form of any page"])
            error.headers[.wwwAuthenticate] = "Bearer realm=\"shortcuts\""
            let isProgram = !showsSignIn || Self.programPaths.contains(request.uri.path)
            error.showsSignIn = !isProgram && request.method == .get
            error.isPlainText = isProgram
            error.returnPath = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
            return error
        }
    }
#endif

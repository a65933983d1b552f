#if Web
    import Hummingbird

    /// Keeps other sites from making a signed-in browser change anything (cross-site request
    /// forgery). Every page gets the browser's form token (a random value in an `HttpOnly`,
    /// `SameSite=Strict` cookie, set on first visit), which its forms carry in a hidden `csrf`
    /// field. A request other than GET or HEAD is refused (403) unless:
    ///
    /// - it says it comes from this site when it says where it comes from (`Sec-Fetch-Site:
    ///   same-origin`, an `Origin` of this host);
    /// - it is a form (`application/x-www-form-urlencoded`) of at most ``maximumFormSize`` bytes
    ///   (else 413);
    /// - its `csrf` field equals the browser's cookie (compared in constant time).
    ///
    /// The form's fields are read here, once, and handed on in ``DashboardContext/form``.
    struct CSRFMiddleware: RouterMiddleware {
        typealias Context = DashboardContext

        /// The largest form body read.
        static let maximumFormSize = 64 * 1024

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            let cookie = request.cookies[DashboardCookies.formToken]?.value
            let known = cookie.flatMap { RandomToken.isWellFormed($0) ? $0 : nil }
            if context.csrfToken.isEmpty { context.csrfToken = known ?? RandomToken.make() }
            if request.method == .get || request.method == .head {
                var response = try await next(request, context)
                if known == nil { response.setCookie(DashboardCookies.formToken(context.csrfToken)) }
                return response
            }
            try checkOrigin(of: request)
            var request = request
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
                throw PageError(.unsupportedMediaType, "the dashboard takes forms only (application/x-www-form-urlencoded)")
            }
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: Self.maximumFormSize)
            } catch {
                throw PageError(.contentTooLarge, "the form is larger than \(Self.maximumFormSize / 1024) KiB")
            }
            guard let fields = FormFields(encoded: String(buffer: body)) else {
                throw PageError(.badRequest, "the form's fields are not URL-encoded")
            }
            guard let known, let presented = fields["csrf"], SecretComparison.matches(presented, expected: known) else {
                throw PageError(
                    .forbidden, "the form's security token is missing or does not match this browser's",
                    help: ["reload the page and submit the form again"])
            }
            context.form = fields
            return try await next(request, context)
        }

        /// Refuses a request that says it comes from another site.
        private func checkOrigin(of request: Request) throws {
            if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
                throw PageError(.forbidden, "the request comes from another site (Sec-Fetch-Site: \(site))")
            }
            guard let origin = request.headers[.origin] else { return }
            let host = request.head.authority ?? ""
            let originHost = origin.split(separator: "://", maxSplits: 1).last.map(String.init) ?? origin
            guard !host.isEmpty, originHost.lowercased() == host.lowercased() else {
                throw PageError(.forbidden, "the request comes from another site (Origin: \(origin))")
            }
        }
    }
#endif

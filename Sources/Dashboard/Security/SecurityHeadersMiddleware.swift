#if Web
    import HTTPTypes
    import Hummingbird

    /// Adds to every answer the headers that keep the pages from being abused by other sites: a
    /// Content-Security-Policy that runs only the dashboard's own script file (no inline script)
    /// and forbids framing, `X-Content-Type-Options: nosniff`, and no referrer sent elsewhere.
    struct SecurityHeadersMiddleware: RouterMiddleware {
        typealias Context = DashboardContext

        static let contentSecurityPolicy =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var response = try await next(request, context)
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
            response.headers[.xContentTypeOptions] = "nosniff"
            response.headers[.referrerPolicy] = "same-origin"
            response.headers[.xFrameOptions] = "DENY"
            return response
        }
    }

    extension HTTPField.Name {
        static let xFrameOptions = Self("X-Frame-Options")!
        static let referrerPolicy = Self("Referrer-Policy")!
        static let secFetchSite = Self("Sec-Fetch-Site")!
    }
#endif

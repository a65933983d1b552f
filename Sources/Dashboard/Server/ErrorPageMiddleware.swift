#if Web
    import Hummingbird

    /// Answers every error with a page: a ``PageError`` with its status, message and help (the
    /// sign-in form for a 401 on a page), an unknown path with 404, anything else with 500. A
    /// failure never reaches the browser as a bare status or a stack.
    struct ErrorPageMiddleware: RouterMiddleware {
        typealias Context = DashboardContext

        let site: DashboardSite

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            context.commandName = site.configuration.commandName
            let cookie = request.cookies[DashboardCookies.formToken]?.value
            let known = cookie.flatMap { RandomToken.isWellFormed($0) ? $0 : nil }
            context.csrfToken = known ?? RandomToken.make()
            do {
                return try await next(request, context)
            } catch let error as PageError {
                return page(for: error, context: context, setsFormToken: known == nil)
            } catch let error as HTTPError {
                let message = error.status == .notFound ? "no page at \(request.uri.path)" : (error.body ?? error.status.reasonPhrase)
                let help = error.status == .notFound ? ["the links at the top of every page lead to the dashboard's pages"] : []
                return page(for: PageError(error.status, message, help: help), context: context, setsFormToken: known == nil)
            } catch {
                let error = PageError(.internalServerError, "the dashboard failed to answer: \(site.mask.mask("\(error)"))")
                return page(for: error, context: context, setsFormToken: known == nil)
            }
        }

        private func page(for error: PageError, context: Context, setsFormToken: Bool) -> Response {
            if error.isPlainText {
                var response = Response.text("error: \(error.message)\n" + error.help.map { "help: \($0)\n" }.joined(), status: error.status)
                for field in error.headers { response.headers.append(field) }
                return response
            }
            let html: String
            if error.showsSignIn {
                html = site.templates.render(SignInPage(returnPath: error.returnPath, message: nil, context: context), template: "sign-in")
            } else {
                html = site.templates.render(ErrorPage(error, context: context), template: "error")
            }
            var response = Response.html(html, status: error.status, headers: error.headers)
            if setsFormToken { response.setCookie(DashboardCookies.formToken(context.csrfToken)) }
            return response
        }
    }
#endif

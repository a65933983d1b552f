#if Web
    import Foundation
    import Hummingbird
    import WorkflowKit

    /// The dashboard's routes, in four groups that differ in how they are protected:
    ///
    /// - open to anyone: `/healthz`, the stylesheet and script, and the sign-in form;
    /// - webhooks: `POST /hooks/NAME`, which each authenticate with their own secret
    ///   (``WebhookRoute``), not the dashboard's token;
    /// - for programs: `/metrics`, which needs the token (or a session) but takes no form token;
    /// - pages: everything else, which needs the token or a session, and a form token for anything
    ///   but GET.
    ///
    /// Around all of them: the security headers, the request metrics, error pages and the log.
    struct DashboardRoutes {
        let site: DashboardSite

        var router: Router<DashboardContext> {
            let router = Router(context: DashboardContext.self, options: .autoGenerateHeadEndpoints)
            router.add(middleware: SecurityHeadersMiddleware())
            router.add(middleware: MetricsMiddleware<DashboardContext>())
            router.add(middleware: ErrorPageMiddleware(site: site))
            router.add(middleware: RequestLogMiddleware(logger: site.logger, clock: site.configuration.clock))
            addOpenRoutes(router.group())
            addWebhooks(router.group())
            addProgramRoutes(router.group().add(middleware: AccessMiddleware(site: site, showsSignIn: false)))
            addPages(router.group().add(middleware: AccessMiddleware(site: site)).add(middleware: CSRFMiddleware()))
            return router
        }

        private func addOpenRoutes(_ routes: RouterGroup<DashboardContext>) {
            let site = site
            routes.get("/healthz") { _, _ in try await HealthCheck.response(site: site) }
            routes.get("/assets/:file") { _, context in try Assets.response(for: context.parameters.get("file") ?? "") }
            let signIn = routes.group().add(middleware: CSRFMiddleware())
            signIn.post("/sign-in") { request, context in try SignInPage.signIn(request, context: context, site: site) }
        }

        private func addWebhooks(_ routes: RouterGroup<DashboardContext>) {
            let site = site
            routes.post("/hooks/:name") { request, context in
                await WebhookRoute.response(request, context: context, name: Self.parameter("name", context), site: site)
            }
        }

        private func addProgramRoutes(_ routes: RouterGroup<DashboardContext>) {
            routes.get("/metrics") { _, _ in
                Response.text(DashboardMetrics.text(), contentType: "text/plain; version=0.0.4; charset=utf-8")
            }
        }

        private func addPages(_ routes: RouterGroup<DashboardContext>) {
            let site = site
            let templates = site.templates
            routes.get("/") { _, context -> Response in
                .html(templates.render(try await OverviewPage.make(site: site, context: context), template: "overview"))
            }
            routes.get("/workflows") { _, context -> Response in
                .html(templates.render(try await WorkflowsPage.make(site: site, context: context), template: "workflows"))
            }
            routes.get("/workflows/:name") { _, context -> Response in
                let name = Self.parameter("name", context)
                return .html(templates.render(try await WorkflowPage.make(fileName: name, site: site, context: context), template: "workflow"))
            }
            routes.post("/workflows/:name/run") { _, context -> Response in
                try await RunStart.response(fileName: Self.parameter("name", context), site: site, context: context)
            }
            routes.get("/runs") { request, context -> Response in
                let fields = try Self.query(of: request)
                let parsed = Result { () throws(PageError) in try RunsQuery(fields, times: site.times) }
                let page = try await RunsPage.make(parsed: parsed, fields: fields, site: site, context: context)
                return .html(templates.render(page, template: "runs"), status: page.error == nil ? .ok : .badRequest)
            }
            routes.get("/runs/:id") { _, context -> Response in
                .html(templates.render(try await RunPage.make(id: Self.parameter("id", context), site: site, context: context), template: "run"))
            }
            routes.get("/runs/:id/details") { _, context -> Response in
                .html(templates.render(try await RunPage.details(id: Self.parameter("id", context), site: site), template: "run-details"))
            }
            routes.get("/charts") { request, context -> Response in
                let fields = try Self.query(of: request)
                return .html(templates.render(try await ChartsPage.make(fields: fields, site: site, context: context), template: "charts"))
            }
            routes.get("/search") { request, context -> Response in
                let fields = try Self.query(of: request)
                let (page, status) = try await SearchPage.make(fields: fields, site: site, context: context)
                return .html(templates.render(page, template: "search"), status: .init(code: status))
            }
            routes.get("/intents") { _, context -> Response in
                .html(templates.render(IntentsPage.make(site: site, context: context), template: "intents"))
            }
            routes.get("/events") { request, _ in EventStream.response(for: request, site: site) }
            routes.post("/sign-out") { request, _ in SignInPage.signOut(request, site: site) }
        }

        /// The fields of a request's query.
        ///
        /// - Throws: ``PageError`` 400 when it is not URL-encoded.
        private static func query(of request: Request) throws -> FormFields {
            guard let fields = FormFields(encoded: request.uri.query ?? "") else {
                throw PageError(.badRequest, "the address's query is not URL-encoded", help: ["use the page's forms to filter it"])
            }
            return fields
        }

        /// A path parameter, percent-decoded.
        private static func parameter(_ name: String, _ context: DashboardContext) -> String {
            let raw = context.parameters.get(name) ?? ""
            return raw.removingPercentEncoding ?? raw
        }
    }
#endif

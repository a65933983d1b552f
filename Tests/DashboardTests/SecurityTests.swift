#if Web
    import Foundation
    import HTTPTypes
    import Logging
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// The dashboard's protections: tokens, sessions, form tokens, headers, limits, and the
    /// refusal to serve other machines without a token.
    @Suite("Dashboard protections")
    struct SecurityTests {
        static let token = "correct-horse-battery-staple"

        @Test("With a token, pages, /events and /metrics need it; a wrong or missing one gets 401 and a warning, /healthz does not")
        func tokenRefusal() async throws {
            let harness = try DashboardHarness(token: Self.token)
            try await harness.test { browser in
                let page = try await browser.get("/runs")
                #expect(page.status == .unauthorized)
                #expect(page.headers[.wwwAuthenticate] == #"Bearer realm="shortcuts""#)
                #expect(page.body.contains(#"<form class="sign-in" method="post" action="/sign-in">"#))
                #expect(page.body.contains(#"<input type="hidden" name="return" value="/runs">"#))
                #expect(!page.body.contains("data-run-id"))
                let wrong = try await browser.get("/", headers: [.authorization: "Bearer correct-horse-battery-stapled"])
                #expect(wrong.status == .unauthorized)
                for path in ["/events", "/metrics"] {
                    let refused = try await browser.get(path)
                    #expect(refused.status == .unauthorized, "\(path)")
                    #expect(!refused.body.contains("sign-in"), "\(path) is for programs: no form")
                }
                let right = try await browser.get("/", headers: [.authorization: "Bearer \(Self.token)"])
                #expect(right.status == .ok)
                let metrics = try await browser.get("/metrics", headers: [.authorization: "Bearer \(Self.token)"])
                #expect(metrics.status == .ok)
                #expect(metrics.body.contains("hb_requests{"), "\(metrics.body)")
                #expect(try await browser.get("/healthz").status == .ok)
            }
            let warnings = harness.log.messages(at: .warning)
            #expect(warnings.contains { $0.hasPrefix("refused GET /runs from ") && $0.contains("401") })
            #expect(warnings.contains { $0.contains("the Authorization header does not carry the dashboard's token") })
        }

        @Test("The sign-in form opens a session that later requests carry; signing out ends it")
        func signIn() async throws {
            let harness = try DashboardHarness(token: Self.token)
            try await harness.test { browser in
                _ = try await browser.get("/workflows")
                let wrong = try await browser.post("/sign-in", form: [("token", "guess-guess-guess-guess"), ("return", "/workflows")])
                #expect(wrong.status == .unauthorized)
                #expect(wrong.body.contains("That is not the dashboard&#39;s token."))
                #expect(browser.cookie("shortcuts_session") == nil)
                let signedIn = try await browser.post("/sign-in", form: [("token", Self.token), ("return", "/workflows")])
                #expect(signedIn.status == .seeOther)
                #expect(signedIn.location == "/workflows")
                #expect(signedIn.headers[values: .setCookie].contains { $0.contains("HttpOnly") && $0.contains("SameSite=Strict") })
                #expect(try await browser.get("/workflows").status == .ok)
                let elsewhere = try await browser.post("/sign-in", form: [("token", Self.token), ("return", "//evil.example/")])
                #expect(elsewhere.location == "/", "a return path never leaves the site")
                let out = try await browser.post("/sign-out", form: [])
                #expect(out.status == .seeOther)
                #expect(try await browser.get("/workflows").status == .unauthorized)
            }
        }

        @Test("Ten wrong tokens within a minute get 429 with Retry-After, even with the right token then")
        func throttle() async throws {
            let harness = try DashboardHarness(token: Self.token)
            try await harness.test { browser in
                for attempt in 0..<RefusalThrottle.allowedFailures {
                    let wrong = try await browser.get("/", headers: [.authorization: "Bearer wrong-token-\(attempt)-xxxxxxxx"])
                    #expect(wrong.status == .unauthorized)
                }
                let blocked = try await browser.get("/", headers: [.authorization: "Bearer \(Self.token)"])
                #expect(blocked.status == .tooManyRequests)
                #expect(Int(blocked.headers[.retryAfter] ?? "") ?? 0 >= 1)
            }
            #expect(harness.log.messages(at: .warning).contains { $0.contains("429 too many wrong tokens") })
        }

        @Test("A form without the browser's form token, with another one, or from another site is refused with 403 and starts nothing")
        func csrfRefusal() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                _ = try await browser.get("/workflows/greet")
                let token = browser.formToken
                #expect(RandomToken.isWellFormed(token))
                let missing = try await browser.post("/workflows/greet/run", form: [("input.person", "Ada")], formToken: "")
                #expect(missing.status == .forbidden)
                #expect(missing.body.contains("the form&#39;s security token is missing or does not match this browser&#39;s"))
                let other = try await browser.post("/workflows/greet/run", form: [("input.person", "Ada")], formToken: RandomToken.make())
                #expect(other.status == .forbidden)
                let crossSite = try await browser.post(
                    "/workflows/greet/run", form: [("input.person", "Ada")], headers: [.origin: "http://evil.example"])
                #expect(crossSite.status == .forbidden)
                #expect(crossSite.body.contains("the request comes from another site (Origin: http://evil.example)"))
                let fetched = try await browser.post(
                    "/workflows/greet/run", form: [("input.person", "Ada")], headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
                #expect(fetched.status == .forbidden)
                let json = try await browser.post(
                    "/workflows/greet/run", form: [("input.person", "Ada")], headers: [.contentType: "application/json"])
                #expect(json.status == .unsupportedMediaType)
                #expect(try harness.history.runs(RunHistory.Filter()).isEmpty, "no refused form started a run")
                let sameSite = try await browser.post(
                    "/workflows/greet/run", form: [("input.person", "Ada")],
                    headers: [.origin: "http://127.0.0.1:\(browser.port)", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
                #expect(sameSite.status == .seeOther, "\(sameSite.body)")
            }
            #expect(harness.log.messages(at: .warning).filter { $0.contains(" 403 ") }.count == 4)
        }

        @Test("A form larger than 64 KiB is refused with 413")
        func largeForm() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                _ = try await browser.get("/workflows/greet")
                let page = try await browser.post(
                    "/workflows/greet/run", form: [("input.person", String(repeating: "a", count: 70_000))])
                #expect(page.status == .contentTooLarge)
                #expect(page.body.contains("the form is larger than 64 KiB"))
            }
            #expect(harness.log.messages(at: .warning).contains { $0.contains("413") })
        }

        @Test("Every answer forbids inline scripts and framing, and sniffing of types")
        func headers() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                for path in ["/", "/runs", "/no-such-page", "/assets/dashboard.js", "/healthz"] {
                    let page = try await browser.get(path)
                    let policy = page.headers[.contentSecurityPolicy] ?? ""
                    #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path)")
                    #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
                    #expect(page.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(path)")
                }
                let script = try await browser.get("/assets/dashboard.js")
                #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(script.body.contains("new EventSource(\"/events\")"))
                let page = try await browser.get("/")
                #expect(!page.body.contains("<script>"), "no inline script")
                #expect(page.body.contains(#"<script src="/assets/dashboard.js" defer></script>"#))
                #expect(try await browser.get("/assets/../Package.swift").status == .notFound)
            }
        }

        @Test("An address other than the loopback needs a token of 16 characters or more")
        func exposure() throws {
            #expect(throws: DashboardError.exposedWithoutToken(ListenAddress(host: "0.0.0.0", port: 8080))) {
                try DashboardHarness(address: ListenAddress(host: "0.0.0.0", port: 8080)).configuration.checkExposure()
            }
            #expect(throws: DashboardError.weakToken(length: 5, minimum: 16)) {
                try DashboardHarness(token: "short", address: ListenAddress(host: "0.0.0.0", port: 8080)).configuration.checkExposure()
            }
            try DashboardHarness(token: Self.token, address: ListenAddress(host: "0.0.0.0", port: 8080)).configuration.checkExposure()
            for loopback in ["127.0.0.1", "127.8.0.1", "::1", "localhost"] {
                try DashboardHarness(address: ListenAddress(host: loopback, port: 8080)).configuration.checkExposure()
            }
            #expect(throws: DashboardError.self) { try DashboardServer(DashboardHarness(address: ListenAddress(host: "::", port: 0)).configuration) }
        }
    }
#endif

#if Web
    import AutomationKit
    import Digests
    import Foundation
    import HTTPTypes
    import Hummingbird
    import IntentKit
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// `POST /hooks/NAME` on a real home: the folder's webhooks run in the serving process, and
    /// every refusal is answered with its status and logged with its reason.
    @Suite("Webhooks")
    struct WebhookTests {
        static let secret = "greet-secret-0123456789"
        static let signature = HTTPField.Name("X-Hub-Signature-256")!

        /// A dashboard over the `Hooks` fixtures, serving their webhooks, with the greet hook's secret stored.
        private func harness(_ configure: (inout DashboardConfiguration) -> Void = { _ in }) throws -> DashboardHarness {
            let harness = try DashboardHarness(fixtures: "Hooks") { configuration in
                configuration.webhooks = .folder(
                    WebhookFolder(configuration.workflows, catalog: configuration.catalog), catalog: configuration.catalog,
                    history: configuration.history, secrets: configuration.secrets, logger: configuration.logger)
                configure(&configuration)
            }
            _ = try SecretStore(folder: harness.home).set(Self.secret, named: "WEBHOOK_GREET")
            return harness
        }

        private func post(
            _ browser: Browser, _ path: String, _ body: String, bearer: String? = WebhookTests.secret, headers: HTTPFields = [:]
        ) async throws -> Page {
            var headers = headers
            if let bearer { headers[.authorization] = "Bearer \(bearer)" }
            headers[.contentType] = "application/json"
            return try await browser.send(path, method: .post, headers: headers, body: body)
        }

        private func json(_ page: Page) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]) ?? [:]
        }

        @Test("A request with the secret as a bearer token starts the run at once: 202 with its id, recorded with the trigger webhook and its inputs")
        func bearerStartsARun() async throws {
            let harness = try harness()
            let answer = try await harness.test { browser in try await post(browser, "/hooks/greet", #"{"person": "Ada"}"#) }
            #expect(answer.status == .accepted, "\(answer.body)")
            let runID = try #require(json(answer)["run"] as? String)
            #expect(answer.location == "/runs/\(runID)")
            #expect(json(answer)["status"] as? String == "running")
            try await harness.waitFor("the run to end") { try harness.history.run(matching: runID).run.status == .succeeded }
            let run = try harness.history.run(matching: runID).run
            #expect(run.trigger == "webhook")
            #expect(run.output == #""HELLO ADA""#)
            #expect(run.inputs?.contains(#""person":"Ada""#) == true || run.inputs?.contains(#""person" : "Ada""#) == true, "\(run.inputs ?? "")")
            #expect(harness.log.messages(at: .info).contains { $0.contains("webhook greet: run \(runID) of") })
        }

        @Test("?wait=true answers with the output once the run succeeded, and 500 with the error when it failed")
        func waitGivesTheOutcome() async throws {
            let harness = try harness()
            _ = try SecretStore(folder: harness.home).set("fail-secret-0123456789", named: "FAIL_HOOK")
            try await harness.test { browser in
                let succeeded = try await post(browser, "/hooks/greet?wait=true", #"{"person": "Bo"}"#)
                #expect(succeeded.status == .ok, "\(succeeded.body)")
                #expect(json(succeeded)["output"] as? String == "HELLO BO")
                #expect(json(succeeded)["status"] as? String == "succeeded")
                let failed = try await post(browser, "/hooks/fail?wait=true", "", bearer: "fail-secret-0123456789")
                #expect(failed.status == .internalServerError)
                #expect(json(failed)["status"] as? String == "failed")
                #expect((json(failed)["error"] as? String)?.contains("disk full") == true, "\(failed.body)")
                let runID = try #require(json(failed)["run"] as? String)
                let page = try await browser.get("/runs/\(runID)")
                #expect(page.body.contains("disk full"))
            }
        }

        @Test("An HMAC-SHA256 signature of the body under the secret is accepted; a wrong or malformed one is refused with 401")
        func signatures() async throws {
            let harness = try harness()
            try await harness.test { browser in
                let body = #"{"person": "Cy"}"#
                let code = HMACSHA256.authenticationCode(for: Data(body.utf8), key: Data(Self.secret.utf8)).hexadecimal
                let signed = try await post(browser, "/hooks/greet?wait=true", body, bearer: nil, headers: [Self.signature: "sha256=\(code)"])
                #expect(signed.status == .ok, "\(signed.body)")
                #expect(json(signed)["output"] as? String == "HELLO CY")
                let upper = try await post(browser, "/hooks/greet", body, bearer: nil, headers: [Self.signature: "sha256=\(code.uppercased())"])
                #expect(upper.status == .accepted)
                // The same signature over another body, a changed digit, another scheme, no prefix.
                let otherBody = try await post(
                    browser, "/hooks/greet", #"{"person": "Mallory"}"#, bearer: nil, headers: [Self.signature: "sha256=\(code)"])
                #expect(otherBody.status == .unauthorized)
                var changed = Array(code)
                changed[0] = changed[0] == "0" ? "1" : "0"
                for header in ["sha256=\(String(changed))", "sha1=\(code)", code, "sha256=zz"] {
                    let refused = try await post(browser, "/hooks/greet", body, bearer: nil, headers: [Self.signature: header])
                    #expect(refused.status == .unauthorized, "\(header)")
                    #expect(json(refused)["error"] as? String == "wrong credentials")
                }
            }
            let warnings = harness.log.messages(at: .warning)
            #expect(warnings.filter { $0.contains("refused 401") && $0.contains("a wrong signature in X-Hub-Signature-256") }.count == 5)
        }

        @Test(
            "No credentials, a wrong token, and a secret that is not stored are refused with 401, the log telling why; wrong ones past ten in a minute are throttled, the right one never"
        )
        func refusals() async throws {
            let harness = try harness()
            try await harness.test { browser in
                let missing = try await post(browser, "/hooks/greet", "{}", bearer: nil)
                #expect(missing.status == .unauthorized)
                #expect(missing.headers[.wwwAuthenticate] == "Bearer")
                #expect((json(missing)["error"] as? String)?.contains("Authorization: Bearer SECRET") == true)
                let wrong = try await post(browser, "/hooks/greet", "{}", bearer: Self.secret + "x")
                #expect(wrong.status == .unauthorized)
                #expect(json(wrong)["error"] as? String == "wrong credentials")
                let notStored = try await post(browser, "/hooks/fail", "{}", bearer: "anything-at-all-here")
                #expect(notStored.status == .unauthorized)
                #expect(notStored.body == wrong.body, "a secret that is not stored looks like a wrong one")
                for _ in 0..<8 { _ = try await post(browser, "/hooks/greet", "{}", bearer: "guess") }
                let throttled = try await post(browser, "/hooks/greet", "{}", bearer: "guess")
                #expect(throttled.status == .tooManyRequests, "a client that guessed wrong ten times in a minute waits")
                #expect(throttled.headers[.retryAfter] != nil)
                let right = try await post(browser, "/hooks/greet", #"{"person": "Ada"}"#)
                #expect(right.status == .accepted, "the right secret is not locked out by wrong guesses from the same address")
            }
            let warnings = harness.log.messages(at: .warning)
            #expect(warnings.contains { $0.contains("webhook greet: refused 401 from") && $0.hasSuffix("no credentials") })
            #expect(warnings.contains { $0.contains("webhook greet: refused 401") && $0.hasSuffix("a wrong bearer token") })
            #expect(
                warnings.contains {
                    $0.contains("webhook fail: refused 401")
                        && $0.contains("its secret FAIL_HOOK is not stored; `shortcuts secrets set FAIL_HOOK` stores it")
                })
            #expect(
                warnings.contains { $0.contains("refused 429") && $0.hasSuffix("throttled after repeated wrong credentials (a wrong bearer token)") })
            #expect(try harness.history.runs(RunHistory.Filter()).count == 1, "only the request with the right secret ran")
        }

        @Test("A body whose length is over the limit is refused with 413 and runs nothing")
        func oversizedBodies() async throws {
            let harness = try harness { $0.webhookBodyLimit = 1024 }
            try await harness.test { browser in
                let padding = String(repeating: "a", count: 2000)
                let large = try await post(browser, "/hooks/greet", #"{"person": "\#(padding)"}"#)
                #expect(large.status == .contentTooLarge)
                #expect(json(large)["error"] as? String == "the body is larger than 1024 bytes")
                let fits = try await post(browser, "/hooks/greet", #"{"person": "\#(String(repeating: "a", count: 900))"}"#)
                #expect(fits.status == .accepted)
            }
            #expect(harness.log.messages(at: .warning).contains { $0.contains("refused 413") })
            try await harness.waitFor("the run that fits to end") { try harness.history.runs(RunHistory.Filter(status: .succeeded)).count == 1 }
            #expect(try harness.history.runs(RunHistory.Filter()).count == 1)
        }

        @Test("A burst over the webhook's rate is refused with 429 and Retry-After, and runs nothing more")
        func rateLimit() async throws {
            let harness = try harness()
            try await harness.test { browser in
                var statuses: [Int] = []
                for index in 0..<5 {
                    statuses.append(Int(try await post(browser, "/hooks/greet", #"{"person": "P\#(index)"}"#).status.code))
                }
                #expect(statuses == [202, 202, 202, 429, 429], "rate: 3/h")
                let refused = try await post(browser, "/hooks/greet", #"{"person": "Late"}"#)
                let wait = try #require(refused.headers[.retryAfter].flatMap(Int.init))
                #expect((1...1200).contains(wait), "one request comes back every 20 minutes")
                #expect((json(refused)["error"] as? String)?.contains("takes at most 3/h; try again in \(wait) s") == true, "\(refused.body)")
            }
            #expect(harness.log.messages(at: .warning).filter { $0.hasSuffix("over its rate of 3/h") }.count == 3)
            try await harness.waitFor("the three runs to end") { try harness.history.runs(RunHistory.Filter(status: .succeeded)).count == 3 }
            #expect(try harness.history.runs(RunHistory.Filter()).count == 3)
        }

        @Test("Inputs that do not fit are refused with 422 and the located message; the whole body goes to an input named body")
        func inputs() async throws {
            let harness = try harness()
            _ = try SecretStore(folder: harness.home).set("raw-secret-0123456789", named: "WEBHOOK_RAW")
            try await harness.test { browser in
                let unknown = try await post(browser, "/hooks/greet", #"{"persn": "Ada"}"#)
                #expect(unknown.status == .unprocessableContent)
                let message = try #require(json(unknown)["error"] as? String)
                #expect(message.contains("has no input 'persn'") && message.contains("did you mean 'person'?"), "\(message)")
                let missing = try await post(browser, "/hooks/greet", "{}")
                #expect(missing.status == .unprocessableContent)
                #expect((json(missing)["error"] as? String)?.contains("person") == true, "\(missing.body)")
                let notJSON = try await post(browser, "/hooks/greet", "person=Ada")
                #expect(notJSON.status == .unprocessableContent)
                #expect((json(notJSON)["error"] as? String)?.contains("the request body is not JSON") == true)
                let raw = try await post(browser, "/hooks/raw?wait=true", #"[1, {"two": 2}]"#, bearer: "raw-secret-0123456789")
                #expect(raw.status == .ok, "\(raw.body)")
                #expect((json(raw)["output"] as? [Any])?.count == 2)
            }
            #expect(try harness.history.runs(RunHistory.Filter(trigger: "webhook")).count == 1, "only the raw body ran")
        }

        @Test("An unknown webhook, a disabled automation's, and a server without webhooks answer 404")
        func notFound() async throws {
            let harness = try harness()
            try await harness.test { browser async throws in
                #expect(try await post(browser, "/hooks/nope", "{}").status == .notFound)
                #expect(try await post(browser, "/hooks/off-duty", "{}").status == .notFound)
            }
            let none = try DashboardHarness(fixtures: "Hooks")
            try await none.test { browser async throws in
                #expect(try await post(browser, "/hooks/greet", #"{"person": "Ada"}"#).status == .notFound)
            }
        }

        @Test("Webhooks need no dashboard token: they authenticate with their own secret")
        func independentOfTheDashboardToken() async throws {
            let harness = try harness { $0.token = "dashboard-token-0123456789" }
            try await harness.test { browser async throws in
                #expect(try await post(browser, "/hooks/greet", #"{"person": "Ada"}"#).status == .accepted)
                #expect(try await browser.get("/runs").status == .unauthorized)
            }
        }
    }
#endif

#if Web
    import AutomationKit
    import Digests
    import Foundation
    import HTTPTypes
    import Hummingbird
    import IntentKit
    import NIOCore
    import WorkflowKit

    /// `POST /hooks/NAME`: runs the automation whose `webhook:` has that name, with the request's
    /// JSON body as its input.
    ///
    /// A request passes, in order: a webhook of that name on an enabled automation (else 404);
    /// a body of at most ``DashboardConfiguration/webhookBodyLimit`` bytes (413); the webhook's
    /// secret as `Authorization: Bearer SECRET`, or the body's HMAC-SHA256 under it as
    /// `X-Hub-Signature-256: sha256=HEX` (401, or 429 for a client that gave wrong credentials
    /// ten times within a minute: the right secret is never throttled);
    /// the webhook's `rate:` (429, with `Retry-After`); a workflow that still loads (503); inputs
    /// that fit the workflow's `input:` (422, with the located messages). Then the run starts,
    /// and the answer is 202 with its id (`{"run", "status": "running", "trace"}`, `Location` its
    /// page), or with `?wait=true` the outcome once it ends: 200 when it succeeded
    /// (`{"run", "status", "output"}`), 500 when it failed or timed out, 503 when cancelled.
    ///
    /// Every refusal is logged at warning with its reason and the client's address, and answered
    /// with `{"error": …}`; a wrong secret and a secret that is not stored get the same answer,
    /// and only the log tells them apart.
    enum WebhookRoute {
        /// The header of the body's signature, in the form GitHub, Gitea and Forgejo send it.
        static let signatureHeader = HTTPField.Name("X-Hub-Signature-256")!

        static func response(_ request: Request, context: DashboardContext, name: String, site: DashboardSite) async -> Response {
            do {
                return try await handle(request, context: context, name: name, site: site)
            } catch let refusal as Refusal {
                site.logger.warning("webhook \(name): refused \(refusal.status.code) from \(context.remoteAddress): \(refusal.reason)")
                var response = json(["error": refusal.message], status: refusal.status)
                for field in refusal.headers { response.headers.append(field) }
                return response
            } catch {
                site.logger.error("webhook \(name): \(error)")
                return json(["error": "the request could not be handled"], status: .internalServerError)
            }
        }

        private static func handle(_ request: Request, context: DashboardContext, name: String, site: DashboardSite) async throws -> Response {
            let configuration = site.configuration
            guard let source = configuration.webhooks, let automation = source.automation(name), let webhook = automation.webhook else {
                throw Refusal(
                    .notFound, "no webhook '\(name)'", reason: "no enabled automation of \(configuration.workflows.relativePath) has this webhook")
            }
            let limit = configuration.webhookBodyLimit
            let tooLarge = Refusal(.contentTooLarge, "the body is larger than \(limit) bytes", reason: "a body over \(limit) bytes")
            if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: limit)
            } catch let error as HTTPError where error.status == .contentTooLarge {
                throw tooLarge
            }
            let bytes = Data(buffer: body, byteTransferStrategy: .noCopy)
            try authenticate(request, body: bytes, secretName: webhook.secret, context: context, site: site)
            if let wait = site.webhookLimiter.admit(automation) {
                let seconds = max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
                throw Refusal(
                    .tooManyRequests, "webhook '\(name)' takes at most \(webhook.rate); try again in \(seconds) s",
                    reason: "over its rate of \(webhook.rate)", headers: [.retryAfter: "\(seconds)"])
            }
            let catalog = configuration.catalog
            let workflow: Workflow
            do {
                workflow = try automation.loadWorkflow(catalog: catalog)
            } catch {
                throw Refusal(
                    .serviceUnavailable, "the workflow of webhook '\(name)' has errors",
                    reason: "\(automation.fileName) does not load:\n" + error.rendered())
            }
            let inputs: [String: IntentValue]
            do {
                inputs = try automation.webhookInputs(fromBody: bytes, workflow: workflow, catalog: catalog)
            } catch {
                let message = site.mask.mask(error.rendered())
                throw Refusal(.unprocessableContent, message, reason: "inputs that do not fit: " + message)
            }
            return try await run(automation, inputs: inputs, workflow: workflow, source: source, waits: waits(request), context: context, site: site)
        }

        /// Checks the request's credentials against the webhook's secret.
        private static func authenticate(
            _ request: Request, body: Data, secretName: String, context: DashboardContext, site: DashboardSite
        ) throws {
            let secret: String?
            do {
                secret = try site.configuration.secrets?.secrets()[secretName]?.value
            } catch {
                secret = nil
                site.logger.error("webhook: cannot read the secrets: \(error)")
            }
            let authorization = request.headers[.authorization]
            let signature = request.headers[signatureHeader]
            guard authorization != nil || signature != nil else {
                throw Refusal(
                    .unauthorized,
                    "send the webhook's secret as Authorization: Bearer SECRET, or the body's HMAC-SHA256 as X-Hub-Signature-256: sha256=HEX",
                    reason: "no credentials", headers: [.wwwAuthenticate: "Bearer"])
            }
            // Only wrong credentials are throttled: a client that guessed wrong many times (or
            // another client behind the same proxy) never locks out the right secret.
            let failed = { (reason: String) -> Refusal in
                if let wait = site.throttle.delay(for: context.remoteAddress) {
                    return Refusal(
                        .tooManyRequests, "too many requests with wrong credentials; try again in \(wait) s",
                        reason: "throttled after repeated wrong credentials (\(reason))", headers: [.retryAfter: "\(wait)"])
                }
                site.throttle.recordFailure(from: context.remoteAddress)
                return Refusal(.unauthorized, "wrong credentials", reason: reason, headers: [.wwwAuthenticate: "Bearer"])
            }
            guard let secret else {
                let command = site.configuration.commandName
                throw failed("its secret \(secretName) is not stored; `\(command) secrets set \(secretName)` stores it")
            }
            if let authorization {
                let prefix = "Bearer "
                guard authorization.hasPrefix(prefix), SecretComparison.matches(String(authorization.dropFirst(prefix.count)), expected: secret)
                else {
                    throw failed("a wrong bearer token")
                }
                return
            }
            let prefix = "sha256="
            guard let signature, signature.hasPrefix(prefix),
                HMACSHA256.isValidAuthenticationCode(hexadecimal: signature.dropFirst(prefix.count), for: body, key: Data(secret.utf8))
            else {
                throw failed("a wrong signature in \(signatureHeader)")
            }
        }

        /// Starts the run; answers once it is recorded as started (202), or once it ended (`?wait=true`).
        private static func run(
            _ automation: Automation, inputs: [String: IntentValue], workflow: Workflow, source: WebhookSource, waits: Bool,
            context: DashboardContext, site: DashboardSite
        ) async throws -> Response {
            let (firstRun, firstRunContinuation) = AsyncStream<String>.makeStream()
            let (outcomes, outcomeContinuation) = AsyncStream<Automation.RunOutcome>.makeStream()
            let logger = site.logger
            let name = automation.webhook?.name.value ?? automation.name
            site.runs.start {
                let outcome = await source.run(automation, inputs, workflow) { runID, attempt in
                    if attempt == 1 {
                        logger.info("webhook \(name): run \(runID) of \(automation.fileName) started for \(context.remoteAddress)")
                        firstRunContinuation.yield(runID)
                        firstRunContinuation.finish()
                    }
                }
                firstRunContinuation.finish()
                outcomeContinuation.yield(outcome)
                outcomeContinuation.finish()
            }
            var iterator = firstRun.makeAsyncIterator()
            guard let runID = await iterator.next() else {
                var outcomeIterator = outcomes.makeAsyncIterator()
                let outcome = await outcomeIterator.next()
                let message = site.mask.mask(outcome?.error ?? "the run could not start")
                logger.error("webhook \(name): \(message)")
                return json(["error": message], status: .internalServerError)
            }
            let trace = "/runs/\(runID)"
            guard waits else {
                var response = json(["run": runID, "status": "running", "trace": trace], status: .accepted)
                response.headers[.location] = trace
                return response
            }
            var outcomeIterator = outcomes.makeAsyncIterator()
            guard let outcome = await outcomeIterator.next() else {
                return json(["run": runID, "status": "cancelled", "trace": trace], status: .serviceUnavailable)
            }
            var answer: [String: Any] = [
                "run": outcome.runIDs.last ?? runID, "status": outcome.status.rawValue, "trace": "/runs/\(outcome.runIDs.last ?? runID)"
            ]
            let status: HTTPResponse.Status
            switch outcome.status {
            case .succeeded:
                answer["output"] = outcome.output.map { RunJSON.value(site.mask.mask($0).jsonText) } ?? NSNull()
                status = .ok
            case .cancelled:
                status = .serviceUnavailable
            default:
                answer["error"] = site.mask.mask(outcome.error ?? outcome.status.rawValue) as String
                status = .internalServerError
            }
            return json(answer, status: status)
        }

        /// Whether the query asks to wait for the outcome: `?wait=true` (or `1`, `yes`).
        private static func waits(_ request: Request) -> Bool {
            guard let value = request.uri.queryParameters.get("wait") else { return false }
            return ["true", "1", "yes"].contains(value.lowercased())
        }

        /// A JSON answer.
        static func json(_ object: [String: Any], status: HTTPResponse.Status) -> Response {
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
                ?? Data("{}".utf8)
            return Response(
                status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }

        /// A request turned away: what the client is told, and what the log says.
        struct Refusal: Error {
            var status: HTTPResponse.Status
            var message: String
            var reason: String
            var headers: HTTPFields = [:]

            init(_ status: HTTPResponse.Status, _ message: String, reason: String, headers: HTTPFields = [:]) {
                self.status = status
                self.message = message
                self.reason = reason
                self.headers = headers
            }
        }
    }
#endif

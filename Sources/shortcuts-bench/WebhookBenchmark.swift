import AutomationKit
import BuiltInApps
import Dashboard
import Foundation
import IntentKit
import Logging
import WorkflowKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Webhooks under load: the dashboard's server in this process, on a real TCP port of the
/// loopback, serving a folder with one webhook as `shortcuts serve` does, and a local load loop
/// that sends `requests` requests at `rate` per second, each at its own time whether or not the
/// earlier ones were answered (an open loop), bounded by `seconds`.
///
/// For each request: from the moment it is sent to the 202 answer, which the server sends once
/// the run is recorded as started, and to the run's start as the run history recorded it. The
/// baseline, measured in the same run at the same rate by the same client: GETs of the
/// stylesheet, what the server and the client cost without a webhook.
///
///     swift run -c release --traits Web shortcuts-bench webhooks [requests] [rate] [seconds]
enum WebhookBenchmark {
    static func run(arguments: [String]) async throws {
        #if Web
            let requests = arguments.first.flatMap(Int.init) ?? 2_000
            let rate = arguments.dropFirst().first.flatMap(Double.init) ?? 200
            let limit = arguments.dropFirst(2).first.flatMap(Double.init) ?? 60
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-bench-webhooks-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let server = try await Server(root: root)
            defer { server.stop() }
            print(
                "webhooks: \(requests) requests at \(Int(rate))/s (an open loop, at most \(Int(limit)) s), server and client in this process")

            let session = URLSession(
                configuration: {
                    let configuration = URLSessionConfiguration.ephemeral
                    configuration.httpMaximumConnectionsPerHost = 64
                    return configuration
                }())
            // Warm up both routes (connections, the first run's tables and caches).
            _ = try await load(session, server.asset, count: 50, rate: rate, limit: limit)
            _ = try await load(session, server.hook, count: 50, rate: rate, limit: limit)

            let baseline = try await load(session, server.asset, count: requests, rate: rate, limit: limit)
            let hooks = try await load(session, server.hook, count: requests, rate: rate, limit: limit)
            let started = try await server.startDelays(hooks)

            let answered = hooks.filter { $0.status == 202 }
            print(
                String(
                    format: "  sent %d webhook requests in %.1f s (%.0f/s); %d answered 202, %d otherwise, %d failed",
                    hooks.count, hooks.last.map { $0.sentAfter } ?? 0, Double(hooks.count) / max(hooks.last?.sentAfter ?? 1, 1e-3),
                    answered.count, hooks.count - answered.count - hooks.filter { $0.status == 0 }.count, hooks.filter { $0.status == 0 }.count))
            report("baseline, GET of the stylesheet → answer", baseline.map(\.latency))
            report("webhook, request → run recorded as started", started)
            report("webhook, request → 202 answer with the run id", answered.map(\.latency))
            let floor = baseline.map(\.latency).sorted()
            let ratio = { (values: [Double], p: Double) in
                Percentile.milliseconds(p, of: values.sorted()) / Percentile.milliseconds(p, of: floor)
            }
            print(
                String(
                    format: "  × baseline: run recorded as started p50 ×%.2f, p99 ×%.2f; 202 answer p50 ×%.2f, p99 ×%.2f", ratio(started, 0.5),
                    ratio(started, 0.99), ratio(answered.map(\.latency), 0.5), ratio(answered.map(\.latency), 0.99)))
            let ended = try await server.waitForRuns(answered.compactMap(\.runID))
            print("  runs recorded: \(ended.succeeded) succeeded, \(ended.other) otherwise, of \(answered.count) accepted")
        #else
            print("shortcuts-bench webhooks needs the web server: swift run -c release --traits Web shortcuts-bench webhooks")
            exit(64)
        #endif
    }

    /// One request of the load loop.
    struct Sent: Sendable {
        /// When it was sent, after the loop began (seconds).
        var sentAfter: Double
        /// When it was sent, by the wall clock the run history records starts with.
        var sentAt: Date
        /// How long until its answer (seconds).
        var latency: Double
        /// The answer's status; 0 when none came.
        var status: Int
        /// The run id of a 202 answer.
        var runID: String?
    }

    /// Sends `count` requests at `rate` per second, each at its own time, until `limit` seconds.
    static func load(_ session: URLSession, _ request: URLRequest, count: Int, rate: Double, limit: Double) async throws -> [Sent] {
        let clock = ContinuousClock()
        let start = clock.now
        return await withTaskGroup(of: Sent?.self) { group in
            for index in 0..<count {
                let due = start + .seconds(Double(index) / rate)
                if due - start > .seconds(limit) { break }
                try? await clock.sleep(until: due)
                group.addTask {
                    let sentAfter = seconds(clock.now - start)
                    let sentAt = Date()
                    let before = clock.now
                    var request = request
                    if request.httpMethod == "POST" { request.httpBody = Data(#"{"number": \#(index)}"#.utf8) }
                    guard let (data, response) = try? await session.data(for: request) else {
                        return Sent(sentAfter: sentAfter, sentAt: sentAt, latency: seconds(clock.now - before), status: 0)
                    }
                    let latency = seconds(clock.now - before)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    let runID = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["run"] as? String
                    return Sent(sentAfter: sentAfter, sentAt: sentAt, latency: latency, status: status, runID: runID)
                }
            }
            var sent: [Sent] = []
            for await result in group { if let result { sent.append(result) } }
            return sent.sorted { $0.sentAfter < $1.sentAfter }
        }
    }

    static func report(_ label: String, _ values: [Double]) {
        let sorted = values.sorted()
        print(
            String(
                format: "  %@: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d)", label, Percentile.milliseconds(0.5, of: sorted),
                Percentile.milliseconds(0.99, of: sorted), (sorted.last ?? .nan) * 1000, sorted.count))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    #if Web
        /// The dashboard's server on a home of its own, with one webhook.
        final class Server: Sendable {
            let history: RunHistory
            let base: URL
            let task: Task<Void, any Error>
            static let secret = "benchmark-secret-0123456789"

            init(root: URL) async throws {
                let workflows = root.appendingPathComponent("Workflows")
                let home = root.appendingPathComponent("home")
                try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
                try """
                name: Count
                input:
                  number: Int
                automation:
                  webhook: { name: count, rate: 10000/s }
                steps:
                  - set: doubled
                    to: ${input.number * 2}
                output: ${doubled}
                """.write(to: workflows.appendingPathComponent("count.yaml"), atomically: true, encoding: .utf8)
                let secrets = SecretStore(folder: home)
                _ = try secrets.set(Self.secret, named: "WEBHOOK_COUNT")
                let catalog = IntentCatalog(apps: BuiltInApps.all)
                history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path)
                var logger = Logger(label: "shortcuts-bench.webhooks")
                logger.logLevel = .critical
                var configuration = DashboardConfiguration(
                    workflows: workflows, catalog: catalog,
                    automations: try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path), history: history,
                    secrets: secrets, logger: logger)
                configuration.address = ListenAddress(host: "127.0.0.1", port: 0)
                configuration.webhooks = .folder(
                    WebhookFolder(workflows, catalog: catalog), catalog: catalog, history: history, secrets: secrets, logger: logger)
                let server = try DashboardServer(configuration)
                let (ready, readyContinuation) = AsyncStream<URL>.makeStream()
                task = Task {
                    try await server.run { url in
                        readyContinuation.yield(url)
                        readyContinuation.finish()
                    }
                }
                var iterator = ready.makeAsyncIterator()
                guard let url = await iterator.next() else { throw CocoaError(.fileReadUnknown) }
                base = url
            }

            var hook: URLRequest {
                var request = URLRequest(url: base.appendingPathComponent("hooks/count"))
                request.httpMethod = "POST"
                request.setValue("Bearer \(Self.secret)", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                return request
            }

            var asset: URLRequest { URLRequest(url: base.appendingPathComponent("assets/dashboard.css")) }

            /// From each accepted request's sending to its run's recorded start, in seconds.
            func startDelays(_ sent: [Sent]) async throws -> [Double] {
                let byID = Dictionary(sent.compactMap { item in item.runID.map { ($0, item.sentAt) } }) { first, _ in first }
                let runs = try history.runs(ids: Array(byID.keys))
                return runs.compactMap { run in byID[run.id].map { run.startedAt.timeIntervalSince($0) } }
            }

            /// Waits (up to a minute) until these runs ended; how they ended.
            func waitForRuns(_ ids: [String]) async throws -> (succeeded: Int, other: Int) {
                let deadline = Date().addingTimeInterval(60)
                var runs = try history.runs(ids: ids)
                while Date() < deadline, runs.contains(where: { $0.status == .running }) {
                    try await Task.sleep(for: .milliseconds(200))
                    runs = try history.runs(ids: ids)
                }
                let succeeded = runs.filter { $0.status == .succeeded }.count
                return (succeeded, ids.count - succeeded)
            }

            func stop() { task.cancel() }
        }
    #endif
}

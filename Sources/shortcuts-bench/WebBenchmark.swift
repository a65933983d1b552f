import BuiltInApps
import Foundation
import IntentKit
import LocalHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures `Web.GetContentsOfURL` against the client it runs on, URLSession, called directly.
enum WebBenchmark {
    static func run(arguments: [String]) async throws {
        let requests = arguments.first.flatMap(Int.init) ?? 10_000
        let server = try LocalHTTPServer(routes: ["/item": { _ in .json(#"{"id": 7, "name": "Green tea", "tags": ["loose", "organic"]}"#) }])
        defer { server.stop() }
        let url = server.url("/item")
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [WebApp.app]))
        let session = URLSession(configuration: directConfiguration)
        let clock = ContinuousClock()

        // Both warm up (connections, the intent's reflection), then take turns in ten rounds,
        // so a slow moment of the machine (others share its cores) falls on both alike.
        _ = try await direct(session, url: url, count: 200)
        _ = try await engine(performer, url: url, count: 200)
        let rounds = 10
        var directTimes: [Double] = []
        var engineTimes: [Double] = []
        var directCPU = 0.0
        var engineCPU = 0.0
        var checksum = 0
        for _ in 0..<rounds {
            var cpu = processorSeconds()
            directTimes.append(seconds(try await clock.measure { checksum &+= try await direct(session, url: url, count: requests / rounds) }))
            directCPU += processorSeconds() - cpu
            cpu = processorSeconds()
            engineTimes.append(seconds(try await clock.measure { checksum &+= try await engine(performer, url: url, count: requests / rounds) }))
            engineCPU += processorSeconds() - cpu
        }
        let perRequest = { (total: Double) in total / Double(requests) * 1e6 }
        let ratios = zip(engineTimes, directTimes).map { $0 / $1 }.sorted()
        print("(web) \(requests) local HTTP GETs of a JSON body, parsed, from a server in the same process (checksum \(checksum))")
        print(
            String(
                format: "    Web.GetContentsOfURL through IntentPerformer: %.1f µs per request (%.1f µs of CPU, server included)",
                perRequest(engineTimes.reduce(0, +)), perRequest(engineCPU)))
        print(
            String(
                format: "    URLSession called directly: %.1f µs per request (%.1f µs of CPU, server included)", perRequest(directTimes.reduce(0, +)),
                perRequest(directCPU)))
        print(
            String(
                format: "    ratio intent / direct: %.2f× in time (median of %d rounds %.2f×), %.2f× in CPU (goal ≤ 1.2×)",
                engineTimes.reduce(0, +) / directTimes.reduce(0, +), rounds, ratios[rounds / 2], engineCPU / directCPU))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The processor time of every thread of the process so far.
    static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// URLSession as a developer configures it for fresh answers: no cookies, no cache.
    static var directConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// The baseline: `data(for:)` and `JSONSerialization`, as a developer writes them.
    static func direct(_ session: URLSession, url: URL, count: Int) async throws -> Int {
        var total = 0
        for _ in 0..<count {
            let (data, response) = try await session.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200,
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw URLError(.badServerResponse) }
            total &+= object["id"] as? Int ?? 0
        }
        return total
    }

    /// The intent, performed as a workflow step performs it.
    static func engine(_ performer: IntentPerformer, url: URL, count: Int) async throws -> Int {
        var total = 0
        for _ in 0..<count {
            let outcome = try await performer.perform("Web.GetContentsOfURL", arguments: ["url": .url(url)])
            guard case .dictionary(let item)? = outcome.value, case .int(let id)? = item["id"] else { throw URLError(.badServerResponse) }
            total &+= id
        }
        return total
    }
}

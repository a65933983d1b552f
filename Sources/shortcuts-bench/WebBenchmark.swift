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

        // Both warm up (connections, the intent's reflection), then take turns in two rounds, so
        // a slow moment of the machine falls on both.
        _ = try await direct(session, url: url, count: 200)
        _ = try await engine(performer, url: url, count: 200)
        var directTime = Duration.zero
        var engineTime = Duration.zero
        var checksum = 0
        for _ in 0..<2 {
            directTime += try await clock.measure { checksum &+= try await direct(session, url: url, count: requests / 2) }
            engineTime += try await clock.measure { checksum &+= try await engine(performer, url: url, count: requests / 2) }
        }
        let seconds = { (duration: Duration) in Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
        print("(web) \(requests) local HTTP GETs of a JSON body, parsed, to 127.0.0.1 (checksum \(checksum))")
        print(String(format: "    Web.GetContentsOfURL through IntentPerformer: %.1f µs per request", seconds(engineTime) / Double(requests) * 1e6))
        print(String(format: "    URLSession called directly: %.1f µs per request", seconds(directTime) / Double(requests) * 1e6))
        print(String(format: "    ratio intent / direct: %.2f× (goal ≤ 1.2×)", seconds(engineTime) / seconds(directTime)))
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

import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `Web.GetContentsOfURL` in workflows run by the `shortcuts` binary, against a real HTTP server
/// whose URLs are passed as workflow inputs.
@Suite("Web actions", .endToEnd)
struct WebActionTests {
    let server: LocalHTTPServer

    init() throws {
        server = try LocalHTTPServer(routes: [
            "/forecast": { _ in .json(#"{"city": "Oslo", "days": [{"high": 4}, {"high": 7}, {"high": 6}]}"#) },
            "/orders": { request in .echo(request) },
            "/report.csv": { _ in .text("day,high\nmon,4\n", contentType: "text/csv") },
            "/missing": { _ in .status(404, "no forecast for Atlantis") },
            "/hang": { _ in .never },
            "/logo.png": { _ in .bytes(Data([0x89, 0x50, 0x4E, 0x47, 0xFF]), contentType: "image/png") },
            "/broken.json": { _ in .json("{\"city\": \"Oslo\",\n \"days\": [,]}") }
        ])
    }

    @Test func aFetchedJSONBodyFeedsTheNextSteps() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await run(shortcuts, "forecast.yaml", inputs: ["url": server.url("/forecast").absoluteString])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Oslo: 3 days\nOslo\n")
    }

    @Test func aPostSendsHeadersAndAJSONBodyBuiltFromInputs() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await run(
            shortcuts, "post-order.yaml", inputs: ["url": server.url("/orders").absoluteString, "item": "Green tea"], json: true)
        #expect(result.status == 0, "\(result.error)")
        let full = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(full["status"] as? Int == 200)
        let echo = try #require(full["body"] as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == #"{"count":2,"item":"Green tea"}"#)
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["x-order-source"] == "shortcuts")
        #expect(headers["content-type"] == "application/json")
    }

    @Test func saveToWritesTheFileAndReturnsIt() async throws {
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "web-e2e")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.csv").path
        let result = try await run(shortcuts, "download.yaml", inputs: ["url": server.url("/report.csv").absoluteString, "path": path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Saved \(path)\n\(path)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "day,high\nmon,4\n")
    }

    @Test func proxiesComeFromTheEnvironment() async throws {
        let proxy = try LocalHTTPServer { request in .echo(request) }
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(
            ["run", PackagePaths.fixture("Web/post-order.yaml"), "--input", "url=http://orders.invalid/new", "--input", "item=Tea", "--json"],
            environment: ["http_proxy": proxy.url().absoluteString, "no_proxy": nil, "NO_PROXY": nil])
        #expect(result.status == 0, "\(result.error)")
        // A proxy receives the whole URL as the request's target.
        #expect(proxy.requests.map(\.path) == ["http://orders.invalid/new"])
    }

    /// Each bad input fails the run with the step's location, the URL and the cause in words,
    /// and the history records the run failed.
    @Test(arguments: [
        ("closed port", "cannot connect to URL: nothing accepted the connection on 127.0.0.1 port"),
        ("/hang", "no complete answer from URL within 1 second"),
        ("/missing", "GET URL answered 404 Not Found: no forecast for Atlantis"),
        ("/logo.png", "the body of URL (image/png) is not UTF-8 text (give saveTo to save its bytes to a file)"),
        ("/broken.json", "the body of URL says it is JSON but is not valid JSON: line 2, column 11: unexpected character ','"),
        ("dns", "cannot fetch URL: the host name forecast.invalid was not found"),
        ("tls", "the secure connection to URL failed: the TLS handshake failed")
    ])
    func aFailedFetchFailsTheRunAndSaysWhy(target: String, expected: String) async throws {
        let url: String
        switch target {
        case "closed port":
            let closed = try LocalHTTPServer { _ in .text("") }
            url = closed.url("/forecast").absoluteString
            closed.stop()
        case "dns": url = "http://forecast.invalid/today"
        case "tls": url = "https://127.0.0.1:\(server.port)/forecast"
        default: url = server.url(target).absoluteString
        }
        let shortcuts = try ShortcutsBinary()
        let result = try await run(shortcuts, "forecast.yaml", inputs: ["url": url, "timeout": target == "/hang" ? "1" : "20"])
        #expect(result.status == 1)
        #expect(result.error.contains("Tests/EndToEndTests/Fixtures/Web/forecast.yaml:8:14: error: Web.GetContentsOfURL failed: "))
        #expect(result.error.contains(expected.replacingOccurrences(of: "URL", with: url)), "\(result.error)")
        #expect(!result.error.contains("NSURLErrorDomain"))
        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"]).output.split(separator: "\n")
        #expect(failed.count == 2 && failed[1].hasSuffix("Forecast summary"), "\(failed)")
        if target == "/hang" {
            // The step gave up at its deadline of 1 second, as the binary measured it.
            let listed = try await shortcuts.run(["runs", "list", "--json"])
            let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
            let shown = try await shortcuts.run(["runs", "show", try #require(runs.first?["id"] as? String), "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
            let step = try #require((document["steps"] as? [[String: Any]])?.first)
            let seconds = try #require(step["durationSeconds"] as? Double)
            #expect(seconds >= 1 && seconds < 20, "the fetch took \(seconds) s")
        }
    }

    private func run(_ shortcuts: ShortcutsBinary, _ fixture: String, inputs: [String: String], json: Bool = false) async throws
        -> ShortcutsBinary.Result
    {
        var arguments = ["run", PackagePaths.fixture("Web/" + fixture)]
        for (name, value) in inputs.sorted(by: { $0.key < $1.key }) { arguments += ["--input", "\(name)=\(value)"] }
        if json { arguments.append("--json") }
        return try await shortcuts.run(arguments)
    }
}

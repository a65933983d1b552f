import BuiltInApps
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

/// `Web.GetContentsOfURL` against a real HTTP server on 127.0.0.1.
@Suite struct GetContentsOfURLTests {
    let server: LocalHTTPServer

    init() throws {
        server = try LocalHTTPServer(routes: [
            "/forecast": { _ in .json(#"{"city": "Oslo", "days": [{"high": 4.5, "rain": true}, {"high": 7, "rain": false}]}"#) },
            "/hello": { _ in .text("Hello, world") },
            "/untyped-json": { _ in .bytes(Data(#"[1, 2, 3]"#.utf8), contentType: nil) },
            "/untyped-text": { _ in .bytes(Data("{not json".utf8), contentType: nil) },
            "/json-as-text": { _ in .text(#"{"a": 1}"#) },
            "/problem": { _ in .json(#"{"title": "Out of stock"}"#, contentType: "application/problem+json") },
            "/echo": { .echo($0) },
            "/missing": { _ in .status(404, "no such forecast") },
            "/broken": { _ in .status(500, "database is down\nretry later") },
            "/latin1": { _ in .bytes(Data([0x63, 0x61, 0x66, 0xE9]), contentType: "text/plain; charset=iso-8859-1") },
            "/old": { _ in LocalHTTPServer.Response(status: 302, headers: ["Location": "/hello"]) }
        ])
    }

    @Test func jsonBecomesDictionariesAndLists() async throws {
        let value = try await fetch(["url": .url(server.url("/forecast"))])
        #expect(value["city"] == .string("Oslo"))
        #expect(value["days"]?.elements.count == 2)
        #expect(value["days"]?.elements.first?["high"] == .double(4.5))
        #expect(value["days"]?.elements.last?["rain"] == .bool(false))
        #expect(try await fetch(["url": .url(server.url("/problem"))])["title"] == .string("Out of stock"))
    }

    @Test func textStaysText() async throws {
        #expect(try await fetch(["url": .string(server.url("/hello").absoluteString)]) == .string("Hello, world"))
        // A server that says text is believed, even when the text looks like JSON.
        #expect(try await fetch(["url": .url(server.url("/json-as-text"))]) == .string(#"{"a": 1}"#))
        #expect(try await fetch(["url": .url(server.url("/latin1"))]) == .string("café"))
    }

    @Test func aBodyWithoutContentTypeIsJSONWhenItParses() async throws {
        #expect(try await fetch(["url": .url(server.url("/untyped-json"))]) == .list([.int(1), .int(2), .int(3)]))
        #expect(try await fetch(["url": .url(server.url("/untyped-text"))]) == .string("{not json"))
    }

    @Test func aDictionaryBodyIsSentAsJSON() async throws {
        let echo = try await fetch([
            "url": .url(server.url("/echo")), "method": .string("post"),
            "body": .dictionary(["name": .string("Tea"), "tags": .list([.string("green")])]),
            "headers": .dictionary(["Authorization": .string("Bearer abc"), "X-Count": .int(3)])
        ])
        #expect(echo["method"] == .string("POST"))
        #expect(echo["headers"]?["content-type"] == .string("application/json"))
        #expect(echo["headers"]?["authorization"] == .string("Bearer abc"))
        #expect(echo["headers"]?["x-count"] == .string("3"))
        #expect(echo["body"] == .string(#"{"name":"Tea","tags":["green"]}"#))
    }

    @Test func textBodiesFormsAndQueriesAreSentAsGiven() async throws {
        let text = try await fetch(["url": .url(server.url("/echo")), "method": .string("PUT"), "body": .string("plain words")])
        #expect(text["method"] == .string("PUT"))
        #expect(text["headers"]?["content-type"] == .string("text/plain; charset=utf-8"))
        #expect(text["body"] == .string("plain words"))

        let form = try await fetch([
            "url": .url(server.url("/echo?page=2")), "method": .string("POST"),
            "form": .dictionary(["q": .string("swift & linux"), "lang": .string("日本")])
        ])
        #expect(form["headers"]?["content-type"] == .string("application/x-www-form-urlencoded"))
        #expect(form["body"] == .string("lang=%E6%97%A5%E6%9C%AC&q=swift%20%26%20linux"))
        #expect(form["query"] == .string("page=2"))
    }

    @Test func bodyAndFormTogetherAreRefused() async throws {
        let message = try await failure([
            "url": .url(server.url("/echo")), "method": .string("POST"), "body": .string("x"), "form": .dictionary(["a": .string("b")])
        ])
        #expect(message.contains("with both body and form: give one of them"))
        #expect(server.requests.isEmpty)
    }

    @Test func fullResponseHasStatusHeadersAndBody() async throws {
        let full = try await fetch(["url": .url(server.url("/forecast")), "response": .string("full")])
        #expect(full["status"] == .int(200))
        #expect(full["headers"]?["content-type"] == .string("application/json"))
        #expect(full["body"]?["city"] == .string("Oslo"))
    }

    @Test func redirectsAreFollowed() async throws {
        #expect(try await fetch(["url": .url(server.url("/old"))]) == .string("Hello, world"))
    }

    @Test func anErrorStatusFailsWithItsCodeAndTheStartOfTheBody() async throws {
        let missing = try await failure(["url": .url(server.url("/missing"))])
        #expect(missing.contains("GET \(server.url("/missing")) answered 404 Not Found: no such forecast"))
        #expect(missing.contains("give failOnError: false"))
        let broken = try await failure(["url": .url(server.url("/broken")), "method": .string("DELETE")])
        #expect(broken.contains("DELETE \(server.url("/broken")) answered 500 Internal Server Error: database is down retry later"))
    }

    @Test func failOnErrorFalseReturnsTheErrorResponse() async throws {
        #expect(try await fetch(["url": .url(server.url("/missing")), "failOnError": .bool(false)]) == .string("no such forecast"))
        let full = try await fetch(["url": .url(server.url("/broken")), "failOnError": .bool(false), "response": .string("full")])
        #expect(full["status"] == .int(500))
        #expect(full["body"] == .string("database is down\nretry later"))
    }

    @Test func headReturnsHeadersOnly() async throws {
        let full = try await fetch(["url": .url(server.url("/forecast")), "method": .string("HEAD"), "response": .string("full")])
        #expect(full["status"] == .int(200))
        #expect(full["body"] == .string(""))
        #expect(server.requests.last?.method == "HEAD")
    }

    @Test func onlyHTTPAndHTTPSAreFetched() async throws {
        let message = try await failure(["url": .string("ftp://127.0.0.1/file")])
        #expect(message.contains("cannot fetch ftp://127.0.0.1/file: only http and https URLs are fetched"))
    }

    /// Runs the intent through the performer, as a workflow step does.
    func fetch(_ arguments: [String: IntentValue]) async throws -> IntentValue {
        try await WebTesting.fetch(arguments)
    }

    /// The message of the error the intent fails with.
    func failure(_ arguments: [String: IntentValue]) async throws -> String {
        try await WebTesting.failure(arguments)
    }
}

/// Runs `Web.GetContentsOfURL` as workflows do, through an ``IntentPerformer``.
enum WebTesting {
    static let performer = IntentPerformer(catalog: IntentCatalog(apps: [WebApp.app]))

    static func fetch(_ arguments: [String: IntentValue]) async throws -> IntentValue {
        try await performer.perform("Web.GetContentsOfURL", arguments: arguments).value ?? .null
    }

    static func failure(_ arguments: [String: IntentValue], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        do {
            let value = try await fetch(arguments)
            Issue.record("expected an error, got \(value)", sourceLocation: sourceLocation)
            return ""
        } catch let error as IntentError {
            guard case .performFailed(let intent, let message) = error else { throw error }
            #expect(intent == "Web.GetContentsOfURL", sourceLocation: sourceLocation)
            #expect(!message.contains("NSURLErrorDomain") && !message.contains("Code="), sourceLocation: sourceLocation)
            return message
        }
    }
}

extension IntentValue {
    /// The value of a key of a dictionary value.
    subscript(key: String) -> IntentValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }
}

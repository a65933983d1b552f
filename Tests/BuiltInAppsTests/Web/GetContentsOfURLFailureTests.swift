import BuiltInApps
import Clockwork
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

/// Every way a fetch can go wrong says so in words and names the URL.
@Suite struct GetContentsOfURLFailureTests {
    @Test func aClosedPortIsAnUnreachableHost() async throws {
        let closed = try LocalHTTPServer { _ in .text("") }
        let url = closed.url("/news")
        closed.stop()
        let message = try await WebTesting.failure(["url": .url(url)])
        #expect(message == "cannot connect to \(url): nothing accepted the connection on 127.0.0.1 port \(closed.port) (is the server running?)")
    }

    @Test func anUnknownHostIsADNSFailure() async throws {
        let message = try await WebTesting.failure(["url": .string("http://digest.invalid/today")])
        #expect(
            message
                == "cannot fetch http://digest.invalid/today: the host name digest.invalid was not found (check its spelling and the network's DNS)")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LocalHTTPServer(routes: ["/hang": { _ in .never }])
        // The fetch ends when the clock passes its deadline, and the message names the step's
        // deadline, not the default of 60 seconds.
        let message = try await Self.failure(["url": .url(server.url("/hang")), "timeout": .double(0.5)], timingOutAfter: .milliseconds(500))
        #expect(message == "no complete answer from \(server.url("/hang")) within 0.5 seconds (give a larger timeout to wait longer)")
    }

    @Test func aSlowBodyCountsAgainstTheTimeout() async throws {
        // Far later than the test takes, so that only the clock can end the fetch, however long
        // a busy machine takes to advance it.
        let server = try LocalHTTPServer(routes: ["/slow": { _ in .text("late").delayed(by: .seconds(600)) }])
        let message = try await Self.failure(["url": .url(server.url("/slow")), "timeout": .int(1)], timingOutAfter: .seconds(1))
        #expect(message.contains("within 1 second "))
    }

    /// The failure of a fetch run with a manual clock, advanced past `timeout` once the fetch
    /// waits for that deadline.
    private static func failure(_ arguments: [String: IntentValue], timingOutAfter timeout: Duration) async throws -> String {
        let clock = ManualClock()
        let start = clock.now()
        let fetch = Task { try await TaskClock.$current.withValue(clock) { try await WebTesting.failure(arguments) } }
        try await clock.waitForSleeper(deadline: start.adding(timeout))
        clock.advance(by: timeout)
        return try await fetch.value
    }

    @Test func bytesThatAreNotUTF8SuggestSaveTo() async throws {
        let server = try LocalHTTPServer(routes: [
            "/logo.png": { _ in .bytes(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF]), contentType: "image/png") },
            "/koi8": { _ in .bytes(Data([0xF0]), contentType: "text/plain; charset=koi8-r") }
        ])
        let png = try await WebTesting.failure(["url": .url(server.url("/logo.png"))])
        #expect(png == "the body of \(server.url("/logo.png")) (image/png) is not UTF-8 text (give saveTo to save its bytes to a file)")
        let koi8 = try await WebTesting.failure(["url": .url(server.url("/koi8"))])
        #expect(koi8.contains("is in the charset koi8-r, which is not read (give saveTo"))
    }

    @Test(arguments: [true, false])
    func aBodyOverTheCapIsRefused(sendsLength: Bool) async throws {
        let size = WebApp.GetContentsOfURL.maximumBodySize + 1
        let large = LocalHTTPServer.Response.bytes(Data(repeating: 0x61, count: size), contentType: "text/plain")
        let server = try LocalHTTPServer(routes: ["/large": { _ in sendsLength ? large : large.withoutContentLength() }])
        let message = try await WebTesting.failure(["url": .url(server.url("/large"))])
        #expect(
            message
                == "the body of \(server.url("/large")) is larger than 64 MiB, the limit for a body kept in memory (give saveTo to save it to a file)"
        )
    }

    @Test func jsonThatIsNotValidSaysWhere() async throws {
        let server = try LocalHTTPServer(routes: ["/feed": { _ in .json("{\n  \"items\": [1, 2,\n    oops]\n}") }])
        let message = try await WebTesting.failure(["url": .url(server.url("/feed"))])
        #expect(message == "the body of \(server.url("/feed")) says it is JSON but is not valid JSON: line 3, column 5: unexpected character 'o'")
    }

    @Test func httpsToAPlainHTTPServerIsATLSFailure() async throws {
        let server = try LocalHTTPServer { _ in .text("plain") }
        let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/"))
        let message = try await WebTesting.failure(["url": .url(url), "timeout": .int(5)])
        #expect(message.hasPrefix("the secure connection to \(url) failed: the TLS handshake failed ("))
        #expect(message.hasSuffix("does the server speak https on this port?"))
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/openssl"), "needs openssl(1) for a server with a self-signed certificate"))
    func aSelfSignedCertificateIsNotTrusted() async throws {
        let server = try SelfSignedTLSServer()
        defer { server.stop() }
        let message = try await WebTesting.failure(["url": .url(server.url), "timeout": .int(5)])
        #expect(
            message
                == "the secure connection to \(server.url) failed: its certificate is not trusted (self-signed certificate): no certificate authority of the system's store vouches for it"
        )
    }
}

/// `openssl s_server` on 127.0.0.1 with a certificate it signed itself.
final class SelfSignedTLSServer: Sendable {
    let url: URL
    private let process: Process
    private let folder: URL

    init() throws {
        folder = try TemporaryFolder.make(prefix: "web-tls")
        let key = folder.appendingPathComponent("key.pem").path
        let certificate = folder.appendingPathComponent("certificate.pem").path
        let request = Process()
        request.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        request.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=127.0.0.1"
        ]
        request.standardError = FileHandle.nullDevice
        try request.run()
        request.waitUntilExit()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // It prints "ACCEPT 127.0.0.1:PORT" once it listens.
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains(where: \.isNewline) || !printed.starts(with: Data("ACCEPT".utf8)) {
            guard let chunk = try output.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else { break }
            printed = printed.last == 10 ? chunk : printed + chunk
        }
        let line = String(decoding: printed, as: UTF8.self)
        guard let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "openssl s_server printed \(line)"])
        }
        url = URL(string: "https://127.0.0.1:\(port)/")!
    }

    func stop() {
        // SIGKILL, as the signal mask a test process hands its children may block SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

import Dashboard
import Testing

@Suite("Listen addresses")
struct ListenAddressTests {
    @Test("Addresses are read as HOST:PORT, [IPV6]:PORT or a port alone, and only the loopback counts as this machine only")
    func parsing() throws {
        let cases: [(String, String, Int, Bool)] = [
            ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("8081", "127.0.0.1", 8081, true), ("localhost:0", "localhost", 0, true),
            ("LOCALHOST:80", "localhost", 80, true), ("[::1]:9000", "::1", 9000, true), ("127.42.0.7:1", "127.42.0.7", 1, true),
            ("0.0.0.0:8080", "0.0.0.0", 8080, false), ("[::]:8080", "::", 8080, false), ("192.168.1.20:80", "192.168.1.20", 80, false),
            ("dashboard.internal:443", "dashboard.internal", 443, false)
        ]
        for (text, host, port, isLoopback) in cases {
            let address = try ListenAddress(parsing: text)
            #expect(address.host == host && address.port == port, "\(text)")
            #expect(address.isLoopback == isLoopback, "\(text)")
        }
        #expect(try ListenAddress(parsing: "[::1]:9000").description == "[::1]:9000")
    }

    @Test("A mistyped address says what is wrong with it")
    func mistakes() {
        let cases: [(String, String)] = [
            ("127.0.0.1", "it has no port"), ("127.0.0.1:80x", "'80x' is not a port from 0 to 65535"),
            ("127.0.0.1:70000", "'70000' is not a port"), (":8080", "it has no host"), ("::1:8080", "written in brackets"),
            ("[::1]8080", "written in brackets"), ("exa mple:80", "'exa mple' is neither an IP address nor a host name")
        ]
        for (text, reason) in cases {
            #expect(throws: DashboardError.self, "\(text)") { try ListenAddress(parsing: text) }
            do {
                _ = try ListenAddress(parsing: text)
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error)")
            }
        }
    }
}

import Dashboard
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `shortcuts serve` and `shortcuts daemon --http`: what they refuse, and the pages they serve.
@Suite("Dashboard commands", .timeLimit(.minutes(6)), .endToEnd)
struct DashboardCommandTests {
    @Test("Serving other machines without a token is refused before anything starts, pointing at --http and saying how to fix it")
    func exposedWithoutToken() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["serve", "--http", "0.0.0.0:8080"])
        guard DashboardSupport.isBuiltIn else {
            #expect(result.status == 1)
            #expect(result.error.contains("error: this build of shortcuts has no web dashboard"))
            #expect(result.error.contains("help: build shortcuts with the web dashboard: swift build --traits Web"))
            return
        }
        #expect(result.status == 64)
        #expect(
            result.error == """
                error: 0.0.0.0:8080 is reachable from other machines, and no token protects the dashboard: anyone who reaches the port \
                could read the run history and start workflows
                  shortcuts serve --http 0.0.0.0:8080
                                         ^~~~~~~~~~~~
                help: pass --token-secret NAME, with a token of 16 characters or more stored by `shortcuts secrets set NAME`, or --token TOKEN
                help: or listen on this machine only: --http 127.0.0.1:8080

                """)
        let short = try await shortcuts.run(["serve", "--http", "[::]:8080", "--token", "12345"])
        #expect(short.status == 64)
        #expect(short.error.hasPrefix("error: the token has 5 characters; a token that protects the dashboard needs at least 16"))
        let missing = try await shortcuts.run(["serve", "--http", "0.0.0.0:8080", "--token-secret", "DASHBOARD_TOKEN"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("error: no stored secret 'DASHBOARD_TOKEN' for --token-secret"))
        #expect(missing.error.contains("help: `shortcuts secrets set DASHBOARD_TOKEN` stores it"))
        let typo = try await shortcuts.run(["serve", "--http", "127.0.0.1:80x"])
        #expect(typo.status == 64)
        #expect(typo.error.contains("error: invalid listen address '127.0.0.1:80x': '80x' is not a port from 0 to 65535"))
        let daemon = try await shortcuts.run(["daemon", "--token", "abcdefghijklmnopqrstu"])
        #expect(daemon.status == 64)
        #expect(daemon.error.contains("--token and --token-secret protect the dashboard of --http; add --http ADDRESS"))
    }

    @Test(
        "serve with a stored token serves pages only to requests that carry it, and stops on SIGTERM",
        .enabled(if: DashboardSupport.isBuiltIn, "needs a build with the web dashboard: swift test --traits Web"))
    func serveWithStoredToken() async throws {
        let shortcuts = try ShortcutsBinary()
        let token = "a-token-stored-as-a-secret-1234"
        let stored = try await shortcuts.run(["secrets", "set", "DASHBOARD_TOKEN"], input: token + "\n")
        try #require(stored.status == 0, "\(stored.error)")
        let folder = try TemporaryFolder.make(prefix: "dashboard-serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Workflows"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PackagePaths.file("Workflows/morning-digest.yaml"), to: folder.appendingPathComponent("Workflows/morning-digest.yaml"))
        let server = try await detached {
            try DashboardProcess(shortcuts, arguments: ["serve", "--http", "0.0.0.0:0", "--token-secret", "DASHBOARD_TOKEN"], in: folder)
        }
        let url = server.url
        #expect(server.log.contains("(token required)"))
        let refused = try await fetch(url)
        #expect(refused.status == 401)
        #expect(refused.body.contains("<h1>Sign in</h1>"))
        let page = try await fetch(url, headers: ["Authorization": "Bearer \(token)"])
        #expect(page.status == 200)
        #expect(page.body.contains("Morning digest"))
        let health = try await fetch(url.appendingPathComponent("healthz"))
        #expect(health.status == 200)
        #expect(try await detached { server.stop() } == 0)
        #expect(server.log.contains("warning refused GET / from 127.0.0.1: 401"), "\(server.log)")
        #expect(!server.log.contains(token), "the token never reaches the log")
    }

    @Test(
        "daemon --http serves the pages of the runs it records, and both stop on SIGTERM",
        .enabled(if: DashboardSupport.isBuiltIn, "needs a build with the web dashboard: swift test --traits Web"))
    func daemonServesDashboard() async throws {
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "dashboard-daemon")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflows = folder.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PackagePaths.file(PackagePaths.fixture("Automations/Tick/tick.yaml")), to: workflows.appendingPathComponent("tick.yaml"))
        let daemon = try await detached {
            try DashboardProcess(
                shortcuts, arguments: ["daemon", "--workflows", "Workflows", "--http", "127.0.0.1:0", "--grace", "2s"], in: folder)
        }
        let url = daemon.url
        var runs = (status: 0, body: "")
        // Woken by the daemon's writes to its history.
        try await eventually(watching: [.folder(shortcuts.home)]) {
            runs = try await fetch(url.appendingPathComponent("runs"))
            return runs.body.contains(#"<span class="badge status-succeeded" data-field="status">succeeded</span>"#)
        }
        #expect(runs.status == 200)
        #expect(runs.body.contains("<td data-field=\"trigger\">automation</td>"), "\(runs.body)")
        let metrics = try await fetch(url.appendingPathComponent("metrics"))
        #expect(metrics.status == 200 && metrics.body.contains("hb_requests{"))
        #expect(try await detached { daemon.stop() } == 0)
        #expect(daemon.log.contains("info dashboard at http://127.0.0.1:"))
    }
}

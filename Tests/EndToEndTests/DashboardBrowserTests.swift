import Dashboard
import Foundation
import ShortcutsSystemTestSupport
import Testing

/// The dashboard in a real browser: Chromium driven by Selenium through
/// `Fixtures/Dashboard/dashboard_browser.py`, against `shortcuts serve` on a free port, with the
/// repository's workflows and one that fails.
@Suite("Dashboard in a browser", .timeLimit(.minutes(6)), .endToEnd)
struct DashboardBrowserTests {
    /// Where the screenshots go: `$SHORTCUTS_TEST_SCREENSHOTS`, else a new temporary folder.
    static func screenshotFolder() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_SCREENSHOTS"], !path.isEmpty {
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
        return try TemporaryFolder.make(prefix: "dashboard-screenshots")
    }

    @Test(
        "A person sees the scheduled automations, a run started from a form appear live on the runs page, and a failed run's failing step",
        .enabled(if: SeleniumBrowser.isAvailable, SeleniumBrowser.reason),
        .enabled(
            if: DashboardSupport.isBuiltIn || SystemComponents.isRequired, "needs a build with the web dashboard: swift test --traits Web"))
    func browser() async throws {
        try #require(DashboardSupport.isBuiltIn, "the binary has no web dashboard: build it with --traits Web")
        let python = try #require(SeleniumBrowser.python, "\(SeleniumBrowser.reason)")
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "dashboard-browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflows = folder.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: PackagePaths.file("Workflows").path) where name.hasSuffix(".yaml") {
            try FileManager.default.copyItem(at: PackagePaths.file("Workflows/" + name), to: workflows.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: PackagePaths.file(PackagePaths.fixture("Dashboard/slow-failing-check.yaml")),
            to: workflows.appendingPathComponent("slow-failing-check.yaml"))
        let server = try await detached { try DashboardProcess(shortcuts, arguments: ["serve", "--http", "127.0.0.1:0"], in: folder) }
        let url = server.url
        let screenshots = try Self.screenshotFolder()
        print("Dashboard screenshots: \(screenshots.path)")
        let driver = try await detached {
            try ScriptRun(
                python, arguments: [SeleniumBrowser.script.path, "--url", url.absoluteString, "--screenshots", screenshots.path])
        }
        #expect(driver.status == 0, "\(driver.output)\n\(driver.error)\n\(server.log)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(driver.output.utf8)) as? [String: Any], "\(driver.output)\n\(driver.error)")
        let checks = try #require(report["checks"] as? [[String: Any]])
        #expect(checks.count == 9)
        for check in checks {
            #expect(check["held"] as? Bool == true, "\(check["name"] ?? "") — \(check["detail"] ?? "")")
        }
        for name in ["form.png", "runs-live.png", "run-failed.png", "overview.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: screenshots.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            #expect(size > 10_000, "\(name) was saved")
        }
        #expect(try await detached { server.stop() } == 0)
        #expect(server.log.contains("started run") && server.log.contains("from the dashboard"))
    }
}

extension DashboardBrowserTests {
    /// Which process serves the page and the webhook.
    enum Serving: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `shortcuts daemon --http`: the daemon runs the file drops, serves the page and runs the webhook.
        case daemonWithHTTP
        /// `shortcuts serve` beside a `shortcuts daemon` on the same home: the daemon runs the
        /// file drops, `serve` serves the page (reading the runs the daemon records) and runs the webhook.
        case serveBesideDaemon

        var testDescription: String { self == .daemonWithHTTP ? "daemon --http" : "serve beside a daemon" }
    }

    @Test(
        "A webhook and a file dropped into a watched folder each start a run that the open runs page shows live",
        .enabled(if: SeleniumBrowser.isAvailable, SeleniumBrowser.reason),
        .enabled(
            if: DashboardSupport.isBuiltIn || SystemComponents.isRequired, "needs a build with the web dashboard: swift test --traits Web"),
        arguments: Serving.allCases)
    func triggers(_ serving: Serving) async throws {
        try #require(DashboardSupport.isBuiltIn, "the binary has no web dashboard: build it with --traits Web")
        let python = try #require(SeleniumBrowser.python, "\(SeleniumBrowser.reason)")
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "dashboard-triggers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflows = folder.appendingPathComponent("Workflows")
        let inbox = folder.appendingPathComponent("Inbox")
        for created in [workflows, inbox] { try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true) }
        for name in try FileManager.default.contentsOfDirectory(atPath: PackagePaths.file("Workflows").path) where name.hasSuffix(".yaml") {
            try FileManager.default.copyItem(at: PackagePaths.file("Workflows/" + name), to: workflows.appendingPathComponent(name))
        }
        let secret = "add-book-secret-0123456789"
        let stored = try await shortcuts.run(["secrets", "set", "WEBHOOK_ADD_BOOK"], input: secret)
        #expect(stored.status == 0, "\(stored.error)")
        var daemon: DaemonProcess?
        let server: DashboardProcess
        switch serving {
        case .daemonWithHTTP:
            server = try await detached {
                try DashboardProcess(shortcuts, arguments: ["daemon", "--workflows", "Workflows", "--http", "127.0.0.1:0"], in: folder)
            }
        case .serveBesideDaemon:
            let started = try DaemonProcess.start(shortcuts, folder: workflows.path, grace: "2s")
            daemon = started
            try await started.waitForLog("watching \(inbox.path) for")
            server = try await detached {
                try DashboardProcess(shortcuts, arguments: ["serve", "--workflows", "Workflows", "--http", "127.0.0.1:0"], in: folder)
            }
        }
        let url = server.url
        let screenshots = try Self.screenshotFolder().appendingPathComponent(serving.rawValue)
        print("Dashboard screenshots: \(screenshots.path)")
        let driver = try await detached {
            try ScriptRun(
                python,
                arguments: [
                    SeleniumBrowser.triggersScript.path, "--url", url.absoluteString, "--hook", "add-book", "--secret", secret,
                    "--drop-folder", inbox.path, "--screenshots", screenshots.path
                ])
        }
        #expect(driver.status == 0, "\(driver.output)\n\(driver.error)\n\(server.log)\n\(daemon?.log ?? "")")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(driver.output.utf8)) as? [String: Any], "\(driver.output)\n\(driver.error)")
        let checks = try #require(report["checks"] as? [[String: Any]])
        #expect(checks.count == 7)
        for check in checks {
            #expect(check["held"] as? Bool == true, "\(check["name"] ?? "") — \(check["detail"] ?? "")")
        }
        for name in ["runs-triggers.png", "run-file.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: screenshots.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            #expect(size > 10_000, "\(name) was saved")
        }
        // The serving process counts the runs it ran, by trigger.
        let metrics = try await fetch(url.appendingPathComponent("metrics"))
        #expect(metrics.body.contains(#"shortcuts_runs_total{status="succeeded",trigger="webhook"} 1"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"shortcuts_runs_total{status="succeeded",trigger="file"} 1"#) == (serving == .daemonWithHTTP))
        #expect(try await detached { server.stop() } == 0)
        if let daemon { #expect(try await detached { daemon.stop() } == 0, "\(daemon.log)") }
        #expect(server.log.contains("webhook add-book: run "), "\(server.log)")
        let runs = try await shortcuts.run(["runs", "list", "--json"], in: folder)
        #expect(runs.output.contains(#""trigger" : "webhook""#) && runs.output.contains(#""trigger" : "file""#), "\(runs.output)")
    }
}

/// A script run to its end, with what it printed.
struct ScriptRun {
    var status: Int32
    var output: String
    var error: String

    init(_ program: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let folder = try TemporaryFolder.make(prefix: "script-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("stdout")
        let errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        status = process.terminationStatus
        output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }
}

import Foundation
import IntentKit
import Testing
import WorkflowKit

@testable import AutomationKit

/// An automation with `retry:` runs its workflow's `onFailure:` once, after the last attempt.
@Suite("onFailure with retries")
struct OnFailureRetryTests {
    @Test func onFailureRunsOnceAfterTheLastAttempt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("automation-onfailure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("failing.yaml")
        try """
        automation: { schedule: '0 3 * * *', retry: { attempts: 3, backoff: 10ms } }
        steps:
          - repeat: { count: -1 }
            steps: []
        onFailure:
          - show: "alert: ${error.message}"
        """.write(to: file, atomically: true, encoding: .utf8)
        let workflow = try WorkflowLoader.load(contentsOf: file)
        let automation = try #require(Automation(workflow: workflow, file: file))
        let history = try RunHistory(path: folder.appendingPathComponent("runs.sqlite").path)
        let lines = Lines()
        let result = await automation.runNow(catalog: IntentCatalog(apps: []), history: history) { lines.append($0) }
        #expect(result.status == .failed)
        #expect(result.runIDs.count == 3)
        let shown = lines.all
        #expect(shown.filter { $0.hasPrefix("alert: ") } == ["alert: expected a whole number of 0 or more, got Int '-1'"])
        #expect(shown.last?.hasPrefix("alert: ") == true)
        #expect(shown.filter { $0.hasPrefix("attempt ") }.count == 2)
        let kinds = try result.runIDs.map { try history.run(matching: $0).steps.map(\.kind) }
        #expect(kinds == [["repeat"], ["repeat"], ["repeat", "onFailure", "show"]])
        #expect(try result.runIDs.allSatisfy { try history.run(matching: $0).run.status == .failed })
    }
}

/// The lines an automation's run shows.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var all: [String] { lock.withLock { stored } }
}

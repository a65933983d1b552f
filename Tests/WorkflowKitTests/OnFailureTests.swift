import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// A workflow's `onFailure:` steps: when they run, what they see, and a failure of their own.
@Suite("onFailure")
struct OnFailureTests {
    static let failing = """
        steps:
          - set: stage
            to: started
          - repeat: { count: -1 }
            steps: []
            id: broken
        onFailure:
          - show: "${stage}: ${error.step} failed: ${error.message}"
        """

    func run(_ text: String, runsOnFailure: Bool = true) async throws -> (error: WorkflowRunError, shown: [String]) {
        let workflow = try WorkflowLoader.load(text: text, fileName: "failing.yaml")
        #expect(WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary) == [])
        let shown = ShownLines()
        var runner = WorkflowRunner(catalog: IntentCatalog(apps: []), show: { shown.append($0) })
        runner.runsOnFailure = runsOnFailure
        do {
            _ = try await runner.run(workflow)
        } catch let error as WorkflowRunError {
            return (error, shown.lines)
        }
        Issue.record("expected the run to fail")
        throw CancellationError()
    }

    @Test func runsWithTheErrorAndTheRunStillFails() async throws {
        let (error, shown) = try await run(Self.failing)
        #expect(summary(error.diagnostic) == "4:22: expected a whole number of 0 or more, got Int '-1'")
        #expect(shown == ["started: broken failed: expected a whole number of 0 or more, got Int '-1'"])
    }

    @Test func doesNotRunWhenTheRunnerSaysNot() async throws {
        let (_, shown) = try await run(Self.failing, runsOnFailure: false)
        #expect(shown.isEmpty)
    }

    @Test func aFailingOnFailureKeepsBothErrors() async throws {
        let (error, shown) = try await run(
            """
            steps:
              - repeat: { count: -1 }
                steps: []
            onFailure:
              - show: alerting
              - repeat: { count: -2 }
                steps: []
            """)
        #expect(summary(error.diagnostic) == "2:22: expected a whole number of 0 or more, got Int '-1'")
        #expect(error.diagnostic.help == "onFailure failed too: failing.yaml:6:22: expected a whole number of 0 or more, got Int '-2'")
        #expect(shown == ["alerting"])
    }

    @Test func theTraceShowsTheOnFailureEntry() async throws {
        let workflow = try WorkflowLoader.load(text: Self.failing, fileName: "failing.yaml")
        let history = try RunHistory(path: FileManager.default.temporaryDirectory.appendingPathComponent("onfailure-\(UUID()).sqlite").path)
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []), history: history)
        _ = try? await runner.run(workflow)
        let run = try #require(try history.runs(RunHistory.Filter()).first)
        #expect(run.status == .failed)
        let steps = try history.run(matching: run.id).steps
        #expect(steps.map(\.kind) == ["set", "repeat", "onFailure", "show"])
    }

    @Test func mistakesAreLocated() {
        #expect(
            diagnostics(loading: "steps: []\nonFailure: []\n").map(summary) == [
                "2:1: 'onFailure' needs a list of at least one step, got a list of 0 values"
            ])
        #expect(diagnostics(loading: "steps: []\nonFailure:\n").map(summary).first?.hasPrefix("2:1: 'onFailure' needs a list") == true)
        #expect(diagnostics(loading: "steps: []\nonFailures: [ { show: a } ]\n").map(summary).first?.hasPrefix("2:1: unknown top-level key") == true)
    }
}

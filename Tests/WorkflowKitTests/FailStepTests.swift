import Foundation
import IntentKit
import Synchronization
import Testing

@testable import WorkflowKit

/// `fail:` ends a run as failed on purpose: after a `catch:` that cleaned up, from a loop or a
/// branch, with `finally:` and `onFailure:` still running; a `try:` around it catches it.
@Suite("fail: steps")
struct FailStepTests {
    private let home = FileManager.default.temporaryDirectory.appendingPathComponent("fail-step-\(UUID().uuidString)")

    /// Runs the text with a history, expecting it to fail; returns the error, what the run
    /// showed, and the run as recorded.
    private func failingRun(_ text: String) async throws -> (
        error: WorkflowRunError, shown: [String], steps: [RunHistory.RecordedStep], run: RunHistory.Run
    ) {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path)
        let workflow = try WorkflowLoader.load(text: text, fileName: "fail.yaml")
        let problems = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow)
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        let shown = Mutex<[String]>([])
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []), history: history, secrets: nil) { text in shown.withLock { $0.append(text) } }
        do {
            let result = try await runner.run(workflow)
            Issue.record("expected the run to fail, got \(result.output)")
            throw CancellationError()
        } catch let error as WorkflowRunError {
            let recorded = try history.run(matching: try #require(history.recentRuns(limit: 1).first?.id))
            return (error, shown.withLock { $0 }, recorded.steps, recorded.run)
        }
    }

    @Test("fail: in catch: ends the run as failed with its message, after finally: and with its data recorded")
    func failAfterCleaningUp() async throws {
        let (error, shown, steps, run) = try await failingRun(
            """
            steps:
              - try:
                  - repeat: { count: -1 }
                    steps: []
                catch:
                  - show: cleaning up
                  - fail: "the backup failed: ${error.message}"
                    data: { step: "${error.step}", attempts: 3 }
                finally:
                  - show: finally
              - show: never
            """)
        #expect(error.diagnostic.message == "the backup failed: expected a whole number of 0 or more, got Int '-1'")
        #expect(error.diagnostic.location.line == 7 && error.diagnostic.location.column == 9)
        #expect(shown == ["cleaning up", "finally"])
        #expect(run.status == .failed)
        #expect(run.error?.contains("the backup failed") == true)
        let fail = try #require(steps.first { $0.kind == "fail" })
        #expect(fail.error?.contains("the backup failed") == true)
        let inputs = try JSONSerialization.jsonObject(with: Data(fail.inputs.utf8)) as? [String: Any]
        let data = inputs?["data"] as? [String: Any]
        #expect(data?["attempts"] as? Int == 3 && data?["step"] as? String == "repeat", "\(fail.inputs)")
    }

    @Test("fail: from a loop and a branch ends the whole run, and onFailure: runs")
    func failFromALoopRunsOnFailure() async throws {
        let (error, shown, _, _) = try await failingRun(
            """
            steps:
              - repeat: { count: 3 }
                steps:
                  - if: { value: "${index}", equalTo: 2 }
                    then: [ { fail: "stopped at ${index}" } ]
                  - show: "pass ${index}"
            onFailure:
              - show: "notified: ${error.message}"
            """)
        #expect(error.diagnostic.message == "stopped at 2")
        #expect(shown == ["pass 1", "notified: stopped at 2"])
    }

    @Test("A try: around fail: catches it like any failure")
    func tryCatchesFail() async throws {
        let result = try await InlineWorkflow.run(
            """
            steps:
              - try: [ { fail: "no invoice found" } ]
                catch: [ { set: reason, to: "${error.message}" } ]
            output: ${reason}
            """, fileName: "caught.yaml")
        #expect(result.output == .string("no invoice found"))
    }

    @Test(
        "Mistakes in a fail: step are located errors",
        arguments: [
            ("steps: [ { fail: } ]\n", "1:12: 'fail' needs a message"),
            (
                "steps: [ { fail: x, continueOnError: true } ]\n",
                "1:21: 'continueOnError' is not allowed in a 'fail' step: 'fail' fails the run on purpose"
            ),
            ("steps: [ { fail: x, timeout: 5s } ]\n", "1:21: 'timeout' is not allowed in a 'fail' step: it ends at once"),
            ("steps: [ { fail: x, with: { a: 1 } } ]\n", "1:21: 'with' is not allowed in a 'fail' step")
        ])
    func mistakes(_ yaml: String, _ expected: String) {
        do {
            _ = try WorkflowLoader.load(text: yaml, fileName: "m.yaml")
            Issue.record("expected \(expected)")
        } catch {
            let first = error.diagnostics.first.map { "\($0.location.line):\($0.location.column): \($0.message)" }
            #expect(first?.hasPrefix(expected) == true, "\(error.diagnostics.map(\.message))")
        }
    }
}

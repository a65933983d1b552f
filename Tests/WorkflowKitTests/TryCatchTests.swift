import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `try:` with `catch:` and `finally:`: what `${error}` holds, what always runs, what
/// propagates, and the located mistakes.
@Suite("Try, catch and finally")
struct TryCatchTests {
    func run(_ text: String) async throws -> WorkflowRunResult {
        try await InlineWorkflow.run(text, fileName: "try.yaml")
    }

    func failure(_ text: String) async throws -> WorkflowRunError {
        try await InlineWorkflow.failure(text, fileName: "try.yaml")
    }

    @Test func catchReceivesTheErrorAndFinallyRuns() async throws {
        let result = try await run(
            """
            steps:
              - try:
                  - append: before
                    to: seen
                  - repeat: { count: -1 }
                    steps: []
                    id: broken
                  - append: never
                    to: seen
                catch:
                  - append: ${error.step} at ${error.location}
                    to: seen
                  - append: ${error.message}
                    to: seen
                finally:
                  - append: finally
                    to: seen
            output: ${seen}
            """)
        #expect(
            result.output
                == .list(
                    [
                        "before", "broken at try.yaml:5:26", "expected a whole number of 0 or more, got Int '-1'", "finally"
                    ].map(IntentValue.string)))
        let block = try #require(result.steps.first)
        #expect(block.kind == "try" && block.error == nil)
        guard case .dictionary(let caught)? = block.inputs["caught"] else {
            Issue.record("the try step records no caught error")
            return
        }
        #expect(caught["step"] == .string("broken"))
        #expect(result.steps.contains { $0.stepID == "broken" && $0.error != nil })
    }

    @Test func finallyRunsWhenNothingFailsAndTheOutputIsTheTriedSteps() async throws {
        let result = try await run(
            """
            steps:
              - try:
                  - set: answer
                    to: 42
                finally:
                  - set: cleaned
                    to: yes
                id: tried
            output: "${tried} ${cleaned}"
            """)
        #expect(result.output == .string("42 yes"))
    }

    @Test func anUncaughtErrorPropagatesAfterFinally() async throws {
        let error = try await failure(
            """
            steps:
              - try:
                  - repeat: { count: -2 }
                    steps: []
                finally:
                  - show: cleaning up
            """)
        #expect(summary(error.diagnostic) == "3:26: expected a whole number of 0 or more, got Int '-2'")
    }

    @Test func anErrorInCatchPropagatesLocatedAndFinallyStillRuns() async throws {
        let workflow = try WorkflowLoader.load(
            text: """
                steps:
                  - try:
                      - repeat: { count: -1 }
                        steps: []
                    catch:
                      - repeat: { count: -3 }
                        steps: []
                    finally:
                      - show: cleaned
                """, fileName: "try.yaml")
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []))
        await #expect {
            try await runner.run(workflow)
        } throws: { error in
            (error as? WorkflowRunError).map(\.diagnostic).map(summary) == "6:26: expected a whole number of 0 or more, got Int '-3'"
        }
    }

    @Test func stopAndBreakLeaveThroughFinally() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: 3 }
                steps:
                  - try:
                      - break:
                    finally:
                      - append: finally ${index}
                        to: seen
              - try:
                  - stop: ${seen}
                catch:
                  - show: not an error
            """)
        #expect(result.output == .list([.string("finally 1")]))
    }

    @Test func mistakesAreLocated() {
        let cases: [(String, String)] = [
            ("steps:\n  - try: [ { show: a } ]\n", "2:5: 'try' needs 'catch:', 'finally:' or both"),
            ("steps:\n  - catch: [ { show: a } ]\n", "2:5: 'catch' without 'try'"),
            ("steps:\n  - finally: []\n", "2:5: 'finally' without 'try'"),
            ("steps:\n  - show: a\n    catch: []\n", "3:5: 'catch' is not allowed in a 'show' step")
        ]
        for (text, expected) in cases {
            #expect(diagnostics(loading: text).map(summary) == [expected], "\(text)")
        }
    }

    @Test func errorIsOnlyKnownInsideCatch() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - try: []\n    catch: [ { show: ${error.message} } ]\n  - show: ${error.message}\n", fileName: "try.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("4:") == true)
    }
}

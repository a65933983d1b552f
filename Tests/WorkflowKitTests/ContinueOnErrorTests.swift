import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `continueOnError: true`: the run goes on, the step's output is null and `${id.error}` says why.
@Suite("continueOnError")
struct ContinueOnErrorTests {
    func run(_ text: String) async throws -> WorkflowRunResult {
        try await InlineWorkflow.run(text, fileName: "continue.yaml")
    }

    @Test func aFailedStepGivesNullAndItsError() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: -1 }
                steps: []
                id: broken
                continueOnError: true
              - set: ok
                to: fine
                id: fine
                continueOnError: true
            output:
              output: ${broken}
              message: ${broken.error.message}
              step: ${broken.error.step}
              location: ${broken.error.location}
              fineError: ${fine.error}
            """)
        #expect(
            result.output
                == .dictionary([
                    "output": .null, "message": .string("expected a whole number of 0 or more, got Int '-1'"),
                    "step": .string("broken"), "location": .string("continue.yaml:2:22"), "fineError": .null
                ]))
        let traced = try #require(result.steps.first)
        #expect(traced.error != nil && traced.details["continued"] == .bool(true))
    }

    @Test func theErrorOfAStepInsideIsTheInnermostStep() async throws {
        let result = try await run(
            """
            steps:
              - if: { value: 1, equalTo: 1 }
                then:
                  - show: first
                  - repeat: { count: -4 }
                    steps: []
                    id: inner
                id: outer
                continueOnError: true
              - show: after
            output: "${outer.error.step} then ${previous}"
            """)
        #expect(result.output == .string("inner then after"))
    }

    @Test func withoutItTheRunStops() async throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - repeat: { count: -1 }\n    steps: []\n    continueOnError: false\n  - show: never\n", fileName: "c.yaml")
        await #expect(throws: WorkflowRunError.self) { try await WorkflowRunner(catalog: IntentCatalog(apps: [])).run(workflow) }
    }

    @Test func mistakesAreLocated() throws {
        let cases: [(String, String)] = [
            (
                "steps:\n  - comment: hi\n    continueOnError: true\n",
                "3:5: 'continueOnError' is not allowed in a 'comment' step: a comment does nothing"
            ),
            (
                "steps:\n  - try: []\n    finally: []\n    continueOnError: true\n",
                "4:5: 'continueOnError' is not allowed in a 'try' step: a 'try' handles its errors with 'catch:'"
            ),
            (
                "steps:\n  - stop: done\n    continueOnError: true\n",
                "3:5: 'continueOnError' is not allowed in a 'stop' step: 'stop' ends the run on purpose"
            ),
            ("steps:\n  - show: a\n    continueOnError: maybe\n", "3:22: expected true or false for 'continueOnError', got 'maybe'")
        ]
        for (text, expected) in cases {
            #expect(diagnostics(loading: text).map(summary) == [expected], "\(text)")
        }
        let unknown = try WorkflowLoader.load(text: "steps:\n  - show: a\n    id: shown\n  - show: ${shown.error}\n", fileName: "c.yaml")
        #expect(WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(unknown).count == 1)
    }

    @Test func theErrorIsReadInsideExpressions() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: -1 }
                steps: []
                id: broken
                continueOnError: true
              - set: ok
                to: fine
                id: fine
                continueOnError: true
              - if: ${broken.error != null && fine.error == null}
                then: [ { set: verdict, to: "broken failed, fine did not" } ]
            output:
              shout: ${upper(broken.error.message)}
              where: ${broken.error.step + " at " + broken.error.location}
              fineMessage: ${fine.error?.message ?? "none"}
              verdict: ${verdict}
            """)
        #expect(
            result.output
                == .dictionary([
                    "shout": .string("EXPECTED A WHOLE NUMBER OF 0 OR MORE, GOT INT '-1'"),
                    "where": .string("broken at continue.yaml:2:22"), "fineMessage": .string("none"),
                    "verdict": .string("broken failed, fine did not")
                ]))
    }
}

import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `timeout:` on a step cancels it past the duration and fails it at the timeout.
@Suite("Step timeouts")
struct StepTimeoutTests {
    @Test func aStepPastItsTimeoutIsCancelledAndFailsAtTheTimeout() async throws {
        let started = ContinuousClock.now
        let error = try await InlineWorkflow.failure(
            "steps:\n  - wait: 10m\n    timeout: 100ms\n  - show: never\n", fileName: "slow.yaml")
        #expect(summary(error.diagnostic) == "3:14: the step did not end within its timeout of 100 ms, so it was cancelled")
        // Far below the wait's ten minutes, with room for a machine busy with other tests.
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    @Test func continueOnErrorAndTryHandleATimeoutLikeAnyFailure() async throws {
        let result = try await InlineWorkflow.run(
            """
            steps:
              - id: slow
                wait: 10m
                timeout: 50ms
                continueOnError: true
              - try:
                  - repeat: { count: 1000 }
                    timeout: 100ms
                    steps: [ { wait: 50ms } ]
                catch:
                  - show: "caught at line ${error.location}"
            output: ${slow.error.message}
            """, fileName: "handled.yaml")
        #expect(result.output == .string("the step did not end within its timeout of 50 ms, so it was cancelled"))
        #expect(result.steps.compactMap(\.dialog).first?.hasPrefix("caught at line handled.yaml:8:18") == true)
    }

    @Test func aStepWithinItsTimeoutKeepsItsOutputAndVariables() async throws {
        let result = try await InlineWorkflow.run(
            """
            steps:
              - set: total
                to: 0
              - repeat: { count: 3 }
                timeout: 10s
                steps: [ { set: total, to: "${total + index}" } ]
            output: ${total}
            """, fileName: "quick.yaml")
        #expect(result.output == .int(6))
    }

    @Test func badTimeoutsAreLocated() {
        #expect(
            diagnostics(loading: "steps:\n  - wait: 1s\n    timeout: soon\n").map(summary).first?.hasPrefix(
                "3:14: invalid duration 'soon' for 'timeout'")
                == true)
        #expect(
            diagnostics(loading: "steps:\n  - wait: 1s\n    timeout: 0s\n").map(summary) == ["3:14: a timeout must be longer than zero"])
        #expect(
            diagnostics(loading: "steps:\n  - set: x\n    to: 1\n    timeout: 1s\n").map(summary) == [
                "4:5: 'timeout' is not allowed in a 'set' step: it ends at once"
            ])
    }
}

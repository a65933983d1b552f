import Clockwork
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// `timeout:` on a step cancels it past the duration and fails it at the timeout.
@Suite("Step timeouts")
struct StepTimeoutTests {
    @Test func aStepPastItsTimeoutIsCancelledAndFailsAtTheTimeout() async throws {
        let clock = ManualClock()
        let run = Task {
            try await InlineWorkflow.failure("steps:\n  - wait: 10m\n    timeout: 100ms\n  - show: never\n", fileName: "slow.yaml", clock: clock)
        }
        // The step's ten-minute wait and its timeout's timer.
        try await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(100))
        let error = try await run.value
        #expect(summary(error.diagnostic) == "3:14: the step did not end within its timeout of 100 ms, so it was cancelled")
        #expect(clock.sleeperCount == 0, "the cancelled wait still sleeps")
    }

    @Test func continueOnErrorAndTryHandleATimeoutLikeAnyFailure() async throws {
        let clock = ManualClock()
        let run = Task {
            try await InlineWorkflow.run(
                """
                steps:
                  - id: slow
                    wait: 10m
                    timeout: 2s
                    continueOnError: true
                  - try:
                      - repeat: { count: 1000 }
                        timeout: 4s
                        steps: [ { wait: 1s } ]
                    catch:
                      - show: "caught at line ${error.location}"
                output: ${slow.error.message}
                """, fileName: "handled.yaml", clock: clock)
        }
        // The first step's wait and timer; then the loop's timer and its first pass's wait.
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(4))
        let result = try await run.value
        #expect(result.output == .string("the step did not end within its timeout of 2 s, so it was cancelled"))
        #expect(result.steps.compactMap(\.dialog).first?.hasPrefix("caught at line handled.yaml:8:18") == true)
        // Each timed-out step lasted its timeout exactly, by the clock.
        #expect(result.steps.first { $0.stepID == "slow" }?.duration == .seconds(2))
        #expect(result.steps.first { $0.kind == "repeat" }?.duration == .seconds(4))
    }

    @Test func aStepWithinItsTimeoutKeepsItsOutputAndVariables() async throws {
        // The clock never moves: the step ends before its timeout whatever the machine's speed.
        let clock = ManualClock()
        let result = try await InlineWorkflow.run(
            """
            steps:
              - set: total
                to: 0
              - repeat: { count: 3 }
                timeout: 10s
                steps: [ { set: total, to: "${total + index}" } ]
            output: ${total}
            """, fileName: "quick.yaml", clock: clock)
        #expect(result.output == .int(6))
        #expect(clock.sleeperCount == 0, "the timeout's timer still sleeps")
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

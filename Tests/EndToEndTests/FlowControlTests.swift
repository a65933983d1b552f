import Foundation
import Testing

/// `repeat` with `while:`/`until:`, `maxIterations:`, `break` and `continue`, through the
/// `shortcuts` binary: the run, its trace in `runs show`, the outline in `view` and the
/// located errors of `validate`.
@Suite("Flow control", .endToEnd)
struct FlowControlTests {
    static let countUp = "Tests/EndToEndTests/Fixtures/FlowControl/count-up.yaml"

    @Test func anUntilLoopWithBreakAndContinueRunsAndIsTraced() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(["run", Self.countUp, "--json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("2") && run.output.contains("4") && run.output.contains("6"))
        #expect(!run.output.contains("8"))
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("succeeded"))
        #expect(shown.contains("count-up.yaml:11:5 repeat"))
        #expect(shown.contains("\"iterations\" : 7"), "\(shown)")
        #expect(shown.contains(" break"))
        #expect(shown.contains(" continue"))
    }

    @Test func exceedingMaxIterationsFailsAtTheRepeat() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(["run", Self.countUp, "--input", "to=50", "--input", "stopAt=99"])
        #expect(run.status == 1)
        #expect(run.error.contains("count-up.yaml:11:5: error: 'repeat' did not end after 8 passes (its 'maxIterations')"), "\(run.error)")
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("failed"))
        #expect(shown.contains("did not end after 8 passes"))
    }

    @Test func aCountAboveTheLimitFromTheCallerIsALocatedErrorNotAnAbort() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = "Tests/EndToEndTests/Fixtures/FlowControl/repeat-count.yaml"
        let refused = try await shortcuts.run(["run", file, "--input", "n=2147483648"])
        #expect(refused.status == 1)
        #expect(
            refused.error.contains("repeat-count.yaml:5:23: error: 'count' is 2147483648, more than 100000, the most passes a 'repeat' makes"),
            "\(refused.error)")
        let counted = try await shortcuts.run(["run", file, "--input", "n=3"])
        #expect(counted.status == 0, "\(counted.error)")
        #expect(counted.output.contains("done"))
    }

    @Test func viewOutlinesTheLoop() async throws {
        let shortcuts = try ShortcutsBinary()
        let view = try await shortcuts.run(["view", Self.countUp])
        #expect(view.status == 0)
        #expect(view.output.contains("11: repeat until (at most 8 passes)"), "\(view.output)")
        #expect(view.output.contains(": break"))
        #expect(view.output.contains(": continue"))
    }

    @Test func breakOutsideALoopIsALocatedValidationError() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["validate", "Tests/EndToEndTests/Fixtures/FlowControl/break-outside.yaml"])
        #expect(result.status == 1)
        let all = result.output + result.error
        #expect(all.contains("break-outside.yaml:3:5: error: 'break' is only allowed inside the steps of a 'repeat'"), "\(all)")
        #expect(all.contains("help: use 'stop:' to end the workflow"))
    }

    @Test func tryCatchesAFailedScriptAndTheTraceSaysSo() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = "Tests/EndToEndTests/Fixtures/FlowControl/try-script.yaml"
        let run = try await shortcuts.run(["run", file])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("probe failed at \(file):5:18"), "\(run.output)")
        #expect(run.output.contains("cleaned up"))
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("succeeded"))
        #expect(shown.contains("try-script.yaml:4:5 try"))
        #expect(shown.contains("\"caught\" : {"), "\(shown)")
        #expect(shown.contains("✘ \(file):5:9 perform → probe"), "\(shown)")
        let view = try await shortcuts.run(["view", file])
        #expect(view.output.contains("4: try\n"), "\(view.output)")
        #expect(view.output.contains("  catch\n") && view.output.contains("  finally\n"))
    }

    @Test func aServiceThatNeverAnswersRunsOnFailureAndTheRunIsRecordedFailed() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(
            ["run", "Workflows/retry-until-answer.yaml", "--input", "check=false"], environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(run.status == 1)
        #expect(
            run.output.contains(
                "Notification (no desktop: DBUS_SESSION_BUS_ADDRESS is not set (no desktop session)): Service down — 'repeat' did not end after 5 passes"
            ), "\(run.output)")
        #expect(run.error.contains("retry-until-answer.yaml:7:5: error: 'repeat' did not end after 5 passes (its 'maxIterations')"))
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("failed, started"))
        #expect(shown.contains("retry-until-answer.yaml:25:1 onFailure"), "\(shown)")
        #expect(shown.contains("retry-until-answer.yaml:26:5 perform"))
        #expect(shown.contains("\"iterations\" : 5"))
        let view = try await shortcuts.run(["view", "Workflows/retry-until-answer.yaml"])
        #expect(view.output.contains("7: repeat until (at most 5 passes)"), "\(view.output)")
        #expect(view.output.hasSuffix("On failure:\n  26: perform Notify.Show\n"), "\(view.output)")
    }

    @Test func aStepThatContinuesOnErrorLetsTheRunGoOnAndTheTraceSaysSo() async throws {
        let shortcuts = try ShortcutsBinary()
        let run = try await shortcuts.run(["run", "Tests/EndToEndTests/Fixtures/FlowControl/continue-on-error.yaml"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Down: Shell.RunScript failed: /bin/sh exited with status 4"), "\(run.output)")
        let id = try await shortcuts.run(["runs", "list"]).output.split(separator: "\n")[1].prefix(8)
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        #expect(shown.contains("succeeded"))
        #expect(shown.contains("✘ Tests/EndToEndTests/Fixtures/FlowControl/continue-on-error.yaml:4:5 perform → probe"), "\(shown)")
        #expect(shown.contains("continued: true"), "\(shown)")
    }
}

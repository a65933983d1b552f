import Clockwork
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Synchronization
import Testing

@testable import WorkflowKit

/// Counts the performs in flight and remembers the most at once; holds them by its clock.
final class InFlightProbe: Sendable {
    static let shared = InFlightProbe()
    private let counts = Mutex((current: 0, most: 0, cancelled: 0))
    private let holdClock = Mutex<any EngineClock>(SystemClock())

    /// Clears the counts and holds by `clock` from now on.
    func reset(clock: any EngineClock = .system) {
        counts.withLock { $0 = (0, 0, 0) }
        holdClock.withLock { $0 = clock }
    }
    /// The clock ``Hold`` waits on.
    var clock: any EngineClock { holdClock.withLock { $0 } }
    var most: Int { counts.withLock { $0.most } }
    var cancelled: Int { counts.withLock { $0.cancelled } }

    func enter() {
        counts.withLock {
            $0.current += 1
            $0.most = max($0.most, $0.current)
        }
    }
    func leave(cancelled: Bool) {
        counts.withLock {
            $0.current -= 1
            if cancelled { $0.cancelled += 1 }
        }
    }
}

/// Holds for a number of milliseconds by the probe's clock, counted by ``InFlightProbe``; fails
/// when asked to.
struct Hold: AppIntent {
    static let title: LocalizedStringResource = "Hold"
    @Parameter(title: "Milliseconds") var milliseconds: Int
    @Parameter(title: "Fails", default: false) var fails: Bool
    init() {}
    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        InFlightProbe.shared.enter()
        var cancelled = false
        defer { InFlightProbe.shared.leave(cancelled: cancelled) }
        if fails { throw IntentError.performFailed(intent: "Hold", message: "hold failed") }
        do {
            try await InFlightProbe.shared.clock.sleep(for: .milliseconds(milliseconds))
        } catch {
            cancelled = true
            throw error
        }
        return .result(value: milliseconds)
    }
}

@Suite("Parallel branches and concurrent repeats", .serialized)
struct ParallelTests {
    let catalog = IntentCatalog(apps: [IntentApp(name: "Probe", intents: [Hold.self])])

    func run(_ text: String, clock: any EngineClock = .system) async throws -> WorkflowRunResult {
        let workflow = try WorkflowLoader.load(text: text, fileName: "parallel.yaml")
        let problems = WorkflowValidator(catalog: catalog).validate(workflow)
        #expect(problems.isEmpty, "\(problems)")
        return try await WorkflowRunner(catalog: catalog, secrets: nil, clock: clock).run(workflow)
    }

    @Test func outputsAreInBranchOrderAndBranchesRunAtOnce() async throws {
        let clock = ManualClock()
        InFlightProbe.shared.reset(clock: clock)
        let running = Task {
            try await run(
                """
                steps:
                  - parallel:
                      - - perform: Probe.Hold
                          with: { milliseconds: 300 }
                        - set: x
                          to: slow
                        - show: ${x}
                      - - set: x
                          to: fast
                        - show: ${x}
                      - perform: Probe.Hold
                        with: { milliseconds: 150 }
                        id: held
                output: ${held}
                """, clock: clock)
        }
        // Both holds are asked for before either is over: the branches run at the same time.
        try await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(300))
        let result = try await running.value
        #expect(result.output == .int(150))
        let parallel = try #require(result.steps.first { $0.kind == "parallel" })
        #expect(parallel.output == .list([.string("slow"), .string("fast"), .int(150)]))
        // The two holds overlap: the branches run at the same time.
        #expect(InFlightProbe.shared.most == 2)
        let branches = result.steps.filter { $0.kind == "branch" }
        #expect(branches.map(\.branch) == [1, 2, 3])
        #expect(branches.allSatisfy { $0.depth == 1 })
        // Each branch's steps follow its record, one level deeper.
        let kinds = result.steps.map { "\($0.depth):\($0.kind)" }
        #expect(kinds == ["0:parallel", "1:branch", "2:perform", "2:set", "2:show", "1:branch", "2:set", "2:show", "1:branch", "2:perform"])
    }

    @Test func variablesSetInABranchStayInside() async throws {
        let workflow = try WorkflowLoader.load(
            text: """
                steps:
                  - parallel:
                      - set: inside
                        to: 1
                  - show: ${inside}
                """, fileName: "local.yaml")
        #expect(!WorkflowValidator(catalog: catalog).validate(workflow).isEmpty)
        await #expect(throws: WorkflowRunError.self) { try await WorkflowRunner(catalog: catalog, secrets: nil).run(workflow) }
    }

    @Test func aFailureCancelsTheSiblings() async throws {
        let clock = ManualClock()
        InFlightProbe.shared.reset(clock: clock)
        let workflow = try WorkflowLoader.load(
            text: """
                steps:
                  - parallel:
                      - wait: 10m
                      - perform: Probe.Hold
                        with: { milliseconds: 600000 }
                      - - wait: 50ms
                        - perform: Probe.Hold
                          with: { milliseconds: 1, fails: true }
                """, fileName: "cancel.yaml")
        let running = Task { try await WorkflowRunner(catalog: catalog, secrets: nil, clock: clock).run(workflow) }
        // The ten-minute wait, the ten-minute hold and the 50 ms wait before the failing perform.
        try await clock.waitForSleepers(3)
        clock.advance(by: .milliseconds(50))
        await #expect(throws: WorkflowRunError.self) { try await running.value }
        #expect(InFlightProbe.shared.cancelled == 1, "the running intent was not cancelled")
        #expect(clock.sleeperCount == 0, "a sibling still waits")
    }

    @Test func aFailureWithContinueOnErrorLetsTheSiblingsFinish() async throws {
        let clock = ManualClock()
        InFlightProbe.shared.reset(clock: clock)
        let running = Task {
            try await run(
                """
                steps:
                  - parallel:
                      - perform: Probe.Hold
                        with: { milliseconds: 200 }
                      - perform: Probe.Hold
                        with: { milliseconds: 1, fails: true }
                        id: flaky
                        continueOnError: true
                      - - wait: 50ms
                        - show: still here
                  - show: "failed: ${flaky.error.message}"
                output: ${previous}
                """, clock: clock)
        }
        // The hold and the wait of the siblings, after the failure beside them.
        try await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(200))
        let result = try await running.value
        #expect(result.output == .string("failed: Hold failed: hold failed"))
        #expect(InFlightProbe.shared.cancelled == 0, "a sibling was cancelled")
        let parallel = try #require(result.steps.first { $0.kind == "parallel" })
        #expect(parallel.error == nil)
        #expect(parallel.output == .list([.int(200), .null, .string("still here")]))
        let flaky = try #require(result.steps.first { $0.stepID == "flaky" })
        #expect(flaky.error?.contains("hold failed") == true)
        #expect(flaky.branch == nil && flaky.depth == 2)
    }

    @Test func whileLoopsAndConcurrentRepeatsRunSideBySide() async throws {
        InFlightProbe.shared.reset()
        let result = try await run(
            """
            steps:
              - set: more
                to: true
              - repeat:
                  while: { value: ${more}, equalTo: true }
                steps:
                  - append: ${index}
                    to: seen
                  - if: { value: ${index}, greaterThanOrEqualTo: 3 }
                    then: [ { set: more, to: false } ]
              - repeat: { each: "${seen}", as: time, concurrency: 2 }
                steps:
                  - perform: Probe.Hold
                    with: { milliseconds: "${time}" }
                id: held
            output: ${held}
            """)
        #expect(result.output == .list([.int(1), .int(2), .int(3)]))
        let loops = result.steps.filter { $0.kind == "repeat" }
        #expect(loops.first?.inputs["iterations"] == .int(3))
        #expect(result.steps.filter { $0.kind == "pass" }.map(\.branch) == [1, 2, 3])
    }

    @Test func breakCannotLeaveABranchOrAConcurrentPass() throws {
        for text in [
            "steps:\n  - repeat: { count: 2 }\n    steps:\n      - parallel:\n          - break:\n",
            "steps:\n  - repeat: { each: [1, 2], concurrency: 2 }\n    steps:\n      - continue:\n"
        ] {
            #expect {
                try WorkflowLoader.load(text: text, fileName: "bad.yaml")
            } throws: { error in
                "\(error)".contains("is only allowed inside the steps of a 'repeat'") && "\(error)".contains("bad.yaml:")
            }
        }
    }

    @Test func aConcurrentRepeatKeepsItsLimitAndItemOrder() async throws {
        InFlightProbe.shared.reset()
        let result = try await run(
            """
            steps:
              - set: times
                to: [60, 10, 40, 20, 30, 50, 10]
              - repeat: { each: "${times}", as: time, concurrency: 3 }
                steps:
                  - perform: Probe.Hold
                    with: { milliseconds: "${time}" }
            output: ${previous}
            """)
        #expect(result.output == .list([60, 10, 40, 20, 30, 50, 10].map { .int($0) }))
        #expect(InFlightProbe.shared.most == 3)
        #expect(result.steps.filter { $0.kind == "pass" }.map(\.branch) == Array(1...7))
    }

    @Test func badParallelsAreLocated() throws {
        for (text, message) in [
            ("steps:\n  - parallel: []\n", "'parallel' needs at least one branch"),
            ("steps:\n  - parallel: hello\n", "expected a list of branches"),
            ("steps:\n  - parallel:\n      - []\n", "branch 1 of 'parallel' has no steps"),
            ("steps:\n  - repeat: { count: 2, concurrency: 2 }\n    steps: []\n", "'concurrency' is only allowed with 'each'")
        ] {
            #expect {
                try WorkflowLoader.load(text: text, fileName: "bad.yaml")
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains("bad.yaml:")
            }
        }
    }
}

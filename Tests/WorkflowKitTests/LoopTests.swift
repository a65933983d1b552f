import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `repeat` with `while:` and `until:`, `maxIterations:`, and `break` and `continue` in every
/// kind of loop.
@Suite("Loops")
struct LoopTests {
    func run(_ text: String) async throws -> WorkflowRunResult {
        try await InlineWorkflow.run(text, fileName: "loop.yaml")
    }

    func failure(_ text: String) async throws -> WorkflowRunError {
        try await InlineWorkflow.failure(text, fileName: "loop.yaml")
    }

    @Test func whileChecksBeforeEachPass() async throws {
        let result = try await run(
            """
            steps:
              - set: seen
                to: []
              - set: more
                to: true
              - repeat:
                  while: { value: ${more}, equalTo: true }
                steps:
                  - append: ${index}
                    to: seen
                  - if: { value: ${index}, greaterThanOrEqualTo: 3 }
                    then: [ { set: more, to: false } ]
              - repeat: { while: { value: ${more}, equalTo: true } }
                steps: [ { append: never, to: seen } ]
            output: ${seen}
            """)
        #expect(result.output == .list([.int(1), .int(2), .int(3)]))
        let loops = result.steps.filter { $0.kind == "repeat" }
        #expect(loops.map { $0.inputs["iterations"] } == [.int(3), .int(0)])
    }

    @Test func untilChecksAfterEachPassSoItRunsAtLeastOnce() async throws {
        let result = try await run(
            """
            steps:
              - repeat:
                  until: { value: ${index}, greaterThanOrEqualTo: 4 }
                steps: [ { append: ${index}, to: seen } ]
              - repeat: { until: { value: true, equalTo: true } }
                steps: [ { append: once, to: seen } ]
            output: ${seen}
            """)
        #expect(result.output == .list([.int(1), .int(2), .int(3), .int(4), .string("once")]))
        #expect(result.steps.first?.inputs["iterations"] == .int(4))
    }

    @Test func untilSeesTheOutputOfAStepInsideTheLoop() async throws {
        let result = try await run(
            """
            steps:
              - repeat:
                  until: { value: ${last}, equalTo: 3 }
                  maxIterations: 5
                steps:
                  - set: last
                    to: ${index}
                    id: counted
            output: ${counted}
            """)
        #expect(result.output == .int(3))
    }

    @Test func exceedingMaxIterationsFailsAtTheRepeat() async throws {
        let error = try await failure(
            """
            steps:
              - show: start
              - repeat: { while: { value: 1, equalTo: 1 }, maxIterations: 5 }
                steps: [ { append: ${index}, to: seen } ]
            """)
        #expect(error.diagnostic.message == "'repeat' did not end after 5 passes (its 'maxIterations')")
        #expect(error.diagnostic.location.line == 3)
        #expect(error.diagnostic.location.column == 5)
    }

    @Test func theDefaultLimitIsTenThousand() async throws {
        let error = try await failure(
            """
            steps:
              - repeat: { until: { value: 1, equalTo: 2 } }
                steps: []
            """)
        #expect(error.diagnostic.message.contains("after 10000 passes"))
        #expect(error.diagnostic.help?.contains("maxIterations") == true)
    }

    @Test func breakEndsEveryKindOfLoop() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: 5 }
                steps:
                  - if: { value: ${index}, equalTo: 3 }
                    then: [ { break: } ]
                  - append: count ${index}
                    to: seen
              - repeat: { each: [a, b, c] }
                steps:
                  - if: { value: ${item}, equalTo: b }
                    then: [ { break: } ]
                  - append: each ${item}
                    to: seen
              - repeat: { while: { value: 1, equalTo: 1 } }
                steps:
                  - append: while ${index}
                    to: seen
                  - break:
              - repeat: { until: { value: 1, equalTo: 2 } }
                steps:
                  - break:
                  - append: never
                    to: seen
            output: ${seen}
            """)
        #expect(
            result.output
                == .list(["count 1", "count 2", "each a", "while 1"].map(IntentValue.string)))
        #expect(result.steps.allSatisfy { $0.error == nil })
    }

    @Test func continueSkipsTheRestOfThePass() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: 4 }
                steps:
                  - if: { value: ${index}, equalTo: 2 }
                    then: [ { continue: } ]
                  - append: ${index}
                    to: seen
              - repeat: { until: { value: ${index}, equalTo: 3 } }
                steps:
                  - continue:
                  - append: never
                    to: seen
                id: skipped
            output: ${seen}
            """)
        #expect(result.output == .list([.int(1), .int(3), .int(4)]))
        #expect(result.steps.first { $0.stepID == "skipped" }?.output == .list([.null, .null, .null]))
    }

    @Test func breakEndsOnlyTheInnermostLoop() async throws {
        let result = try await run(
            """
            steps:
              - repeat: { count: 2 }
                steps:
                  - set: outer
                    to: ${index}
                  - repeat: { count: 3 }
                    steps:
                      - if: { value: ${index}, equalTo: 2 }
                        then: [ { break: } ]
                      - append: ${outer}.${index}
                        to: seen
            output: ${seen}
            """)
        #expect(result.output == .list([.string("1.1"), .string("2.1")]))
    }

    @Test func badLoopsAreLocatedErrors() {
        let cases: [(String, String)] = [
            ("steps:\n  - break:\n", "2:5: 'break' is only allowed inside the steps of a 'repeat'"),
            (
                "steps:\n  - if: { value: 1, equalTo: 1 }\n    then: [ { continue: } ]\n",
                "3:15: 'continue' is only allowed inside the steps of a 'repeat'"
            ),
            (
                "steps:\n  - repeat: { while: { value: 1, equalTo: 1 }, until: { value: 1, equalTo: 2 } }\n    steps: []\n",
                "2:48: 'repeat' takes either 'while' or 'until', not both"
            ),
            (
                "steps:\n  - repeat: { while: { value: 1, equalTo: 1 }, maxIterations: 0 }\n    steps: []\n",
                "2:63: expected an integer of at least 1 for 'maxIterations', got '0'"
            ),
            (
                "steps:\n  - repeat: { until: { value: 1, equalTo: 1 }, maxIterations: many }\n    steps: []\n",
                "2:63: expected an integer of at least 1 for 'maxIterations', got 'many'"
            ),
            (
                "steps:\n  - repeat: { count: 3, maxIterations: 5 }\n    steps: []\n",
                "2:15: 'count' cannot be combined with 'while', 'until' or 'maxIterations' in 'repeat'"
            ),
            (
                "steps:\n  - repeat: { maxIterations: 5 }\n    steps: []\n",
                "2:13: 'maxIterations' needs 'while' or 'until' in 'repeat'"
            ),
            ("steps:\n  - repeat: { count: 2 }\n    steps: [ { break: now } ]\n", "3:23: 'break' takes no value, got 'now'")
        ]
        for (text, expected) in cases {
            let found = diagnostics(loading: text).map(summary)
            #expect(found == [expected], "\(text)")
        }
        let notACondition = diagnostics(loading: "steps:\n  - repeat: { while: 3 }\n    steps: []\n").map(summary)
        #expect(notACondition.count == 1)
        #expect(notACondition.first?.hasPrefix("2:22: expected a condition") == true)
    }

    @Test func theValidatorChecksTheCondition() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - repeat: { while: { value: ${mystery}, equalTo: 1 } }\n    steps: []\n", fileName: "loop.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(found.count == 1)
        #expect(found.first?.contains("mystery") == true)
    }

    @Test func whileAndUntilTakeABooleanExpression() async throws {
        let counted = try await run(
            """
            steps:
              - set: count
                to: 0
              - repeat: { while: ${count < 3} }
                steps:
                  - set: count
                    to: ${count + 1}
                  - append: ${count}
                    to: seen
            output: ${seen}
            """)
        #expect(counted.output == .list([.int(1), .int(2), .int(3)]))
        #expect(counted.steps.filter { $0.kind == "repeat" }.map { $0.inputs["iterations"] } == [.int(3)])
        let untilDone = try await run(
            """
            steps:
              - set: count
                to: 10
              - repeat: { until: ${count >= 10 && count % 2 == 0} }
                steps:
                  - set: count
                    to: ${count + 1}
            output: ${count}
            """)
        #expect(untilDone.output == .int(12))
    }

    @Test func aConditionExpressionMustBeTrueOrFalse() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - set: count\n    to: 0\n  - repeat: { while: ${count + 1} }\n    steps: []\n", fileName: "loop.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("4:") == true, "\(found)")
    }
}

extension LoopTests {
    /// A workflow whose `repeat` count a caller gives, as a webhook or an MCP call does.
    static let countedByCaller = """
        input:
          n: { type: Int }
        steps:
          - repeat: { count: "${input.n}" }
            steps: [ { stop: done } ]

        """

    @Test func aCountAboveTheLimitFailsAtTheCountBeforeAnyPass() async throws {
        let workflow = try WorkflowLoader.load(text: Self.countedByCaller, fileName: "loop.yaml")
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []))
        for count in [RepeatStep.maximumCount + 1, 2_147_483_648, Int.max] {
            do {
                let result = try await runner.run(workflow, inputs: ["n": .int(count)])
                Issue.record("expected the run to fail, got \(result.output)")
            } catch let error as WorkflowRunError {
                #expect(summary(error.diagnostic) == "4:23: 'count' is \(count), more than 100000, the most passes a 'repeat' makes")
                #expect(error.diagnostic.help == "lower it; a count given by a caller can be checked first, as in 'if: ${input.n <= 100000}'")
            }
        }
        let atTheLimit = try await runner.run(workflow, inputs: ["n": .int(RepeatStep.maximumCount)])
        #expect(atTheLimit.output == .string("done"))
    }

    @Test func aWrittenCountAboveTheLimitIsAValidationError() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps: [ { repeat: { count: 2147483648 }, steps: [ { stop: done } ] } ]\n", fileName: "loop.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow)
        #expect(found.map(summary) == ["1:29: 'count' is 2147483648, more than 100000, the most passes a 'repeat' makes"])
        #expect(found.first?.help?.hasPrefix("lower it") == true)
    }
}

import IntentKit
import Testing

@testable import WorkflowKit

/// Boolean expressions stand beside structured comparisons wherever `if:` conditions are
/// written, also inside `all:` and `any:`.
@Suite("Boolean expressions in all and any")
struct ConditionExpressionTests {
    func outcome(count: Int) async throws -> String {
        let text = """
            steps:
              - set: count
                to: \(count)
              - if:
                  any:
                    - ${count > 10}
                    - all:
                        - ${count % 2 == 0}
                        - { value: "${count}", lessThan: 5 }
                then: [ { show: chosen } ]
                else: [ { show: passed } ]
            output: ${count}
            """
        let result = try await InlineWorkflow.run(text, fileName: "t.yaml")
        return result.steps.compactMap(\.dialog).joined(separator: " ")
    }

    @Test func expressionsAndMappingsCombine() async throws {
        #expect(try await outcome(count: 12) == "chosen")
        #expect(try await outcome(count: 4) == "chosen")
        #expect(try await outcome(count: 3) == "passed")
        #expect(try await outcome(count: 6) == "passed")
    }

    @Test func theLiteralsTrueFalseAndNullAreValuesNotVariables() async throws {
        let text = """
            steps:
              - if: ${true}
                then: [ { show: chosen } ]
              - if: ${false}
                then: [ { show: never } ]
              - set: nothing
                to: ${null}
            output: [ "${true}", "${nothing ?? 'none'}" ]
            """
        let workflow = try WorkflowLoader.load(text: text, fileName: "t.yaml")
        #expect(WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary) == [])
        let result = try await InlineWorkflow.run(text, fileName: "t.yaml")
        #expect(result.steps.compactMap(\.dialog) == ["chosen"])
        #expect(result.output == .list([.bool(true), .string("none")]))
    }

    @Test func anExpressionInAnyMustBeBoolean() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - set: count\n    to: 3\n  - if:\n      any:\n        - ${count + 1}\n    then: [ { show: x } ]\n", fileName: "t.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(found == ["6:19: a condition needs true or false, not Int"])
    }

    @Test func textAroundAnExpressionInAllIsAnError() {
        #expect(
            diagnostics(loading: "steps:\n  - if:\n      all:\n        - count is ${count}\n    then: [ { show: x } ]\n").map(summary) == [
                "4:11: a condition written as text must be exactly one expression, such as '${count > 3}'"
            ])
    }

    @Test func aMenuWithChooseShowsTheAskForm() {
        let found = diagnostics(loading: "steps:\n  - menu: Which?\n    options: { A: [] }\n    choose: ${list}\n")
        #expect(found.map(summary) == ["4:5: a menu's options are written out, each with its own steps"])
        #expect(found.first?.help == "to offer the elements of a list, write 'ask: Which one?' with 'choose: ${list}', then use its answer")
    }
}

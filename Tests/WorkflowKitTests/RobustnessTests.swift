import Testing

@testable import WorkflowKit

/// Hostile inputs end in located errors rather than crashes, hangs or exhausted memory.
@Suite("Robustness")
struct RobustnessTests {
    @Test func deeplyNestedFlowCollections() {
        let yaml = "steps: " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        #expect(diagnostics(loading: yaml).map(summary) == ["1:9: the workflow is nested too deeply: more than 1000 levels"])
    }

    @Test func deeplyNestedSteps() {
        var yaml = "steps:\n"
        for level in 0..<120 {
            let indent = String(repeating: "  ", count: level * 2 + 1)
            yaml += "\(indent)- if: { value: 1, equalTo: 1 }\n\(indent)  then:\n"
        }
        yaml += String(repeating: "  ", count: 241) + "- show: deep\n"
        let found = diagnostics(loading: yaml)
        #expect(found.map(summary) == ["198:410: the workflow is nested too deeply: more than 100 levels"])
    }

    @Test func aliasesThatMultiplyAreStopped() {
        var yaml = "x0: &a0 [ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ]\n"
        for level in 1...9 {
            let references = Array(repeating: "*a\(level - 1)", count: 12).joined(separator: ", ")
            yaml += "x\(level): &a\(level) [ \(references) ]\n"
        }
        yaml += "steps:\n  - show: *a9\n"
        let found = diagnostics(loading: yaml)
        #expect(found.map(summary) == ["10:31: too many aliases: more than 100 '*' references"])
    }

    @Test func aliasesWithinTheLimitAreExpandedOnlyToTheNodeBudget() {
        var yaml = "x0: &a0 [ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ]\n"
        for level in 1...6 {
            let references = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            yaml += "x\(level): &a\(level) [ \(references) ]\n"
        }
        yaml += "steps:\n  - show: *a6\n"
        let found = diagnostics(loading: yaml)
        #expect(found.map(\.message).contains("the workflow is too large: more than 200000 values (are aliases repeating each other?)"))
    }

    @Test func aliasesAreFollowed() throws {
        let workflow = try WorkflowLoader.load(
            text: """
                steps:
                  - perform: Library.AddBook
                    with: &book { title: Dune, authorName: Frank Herbert }
                  - perform: Library.AddBook
                    with: *book
                """, fileName: "a.yaml")
        guard case .perform(let second) = workflow.steps.last?.kind else {
            Issue.record("expected a perform step")
            return
        }
        #expect(second.parameters.map(\.name.value) == ["title", "authorName"])
    }

    @Test func privateUseCharactersInTheFileAreKept() throws {
        let workflow = try WorkflowLoader.load(text: "steps:\n  - show: { a: \"\u{E000}${x}\u{E001}\", b: ${y} }\n", fileName: "p.yaml")
        guard case .show(let show) = workflow.steps.first?.kind, case .mapping(let entries, _) = show.value else {
            Issue.record("expected a mapping")
            return
        }
        #expect(entries.first?.value.template?.segments.first == .text("\u{E000}"))
        #expect(entries.last?.value.expression?.description == "${y}")
    }

    @Test func manyDuplicateKeysAreAllReported() {
        let yaml = "steps: []\n" + (0..<30).map { _ in "name: x\n" }.joined()
        let found = diagnostics(loading: yaml)
        #expect(found.count == 29)
        #expect(found.first.map(summary) == "3:1: duplicate key 'name' (first defined at line 2)")
    }

    @Test func byteOrderMarkDoesNotShiftColumns() {
        #expect(diagnostics(loading: "\u{FEFF}stpes: []\nsteps: []\n").map(summary) == ["1:1: unknown top-level key 'stpes'"])
    }

    @Test func windowsLineEndings() {
        #expect(diagnostics(loading: "steps:\r\n  - find: A.B\r\n    limt: 3\r\n").map(summary) == ["3:5: unknown key 'limt' in 'find' step"])
    }
}

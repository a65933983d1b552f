import Testing

@testable import WorkflowKit

/// A fixture using every kind of step and optional setting loads into the expected model.
@Suite("Every step kind")
struct EveryStepKindTests {
    let workflow: Workflow

    init() throws {
        workflow = try WorkflowLoader.load(text: try Fixtures.text("every-step-kind"), fileName: "every.yaml")
    }

    func kinds(_ steps: [Step]) -> [String] {
        steps.flatMap { step -> [String] in
            switch step.kind {
            case .if(let branch): return [step.kind.keyword] + kinds(branch.thenSteps) + kinds(branch.elseSteps)
            case .repeat(let loop): return [step.kind.keyword] + kinds(loop.steps)
            case .menu(let menu): return [step.kind.keyword] + menu.options.flatMap { kinds($0.steps) }
            default: return [step.kind.keyword]
            }
        }
    }

    @Test func everyKindIsPresent() {
        let found = Set(kinds(workflow.steps))
        #expect(
            found
                == Set([
                    "perform", "find", "filter", "show", "set", "append", "if", "repeat", "menu",
                    "ask", "run", "wait", "stop", "comment", "search"
                ]))
    }

    @Test func inputs() {
        #expect(workflow.inputs.map(\.name.value) == ["query", "shelf", "count"])
        #expect(workflow.inputs.map(\.type.value) == ["String", "Library.ShelfEntity", "Int"])
        #expect(workflow.inputs[1].description == "Where to look")
        #expect(workflow.inputs[2].defaultValue?.literal?.tag == .int)
        #expect(workflow.inputs[0].defaultValue == nil)
        #expect(workflow.description?.value == "Uses each kind of step once, with the optional settings of each.\n")
        #expect(workflow.output?.expression?.variable.value == "previous")
    }

    @Test func commentsAreNotParsed() {
        guard case .comment(let comment) = workflow.steps[0].kind else {
            Issue.record("expected a comment")
            return
        }
        #expect(comment.text == "Steps run from top to bottom; ${this} is not an expression here.")
    }

    @Test func searchAskSetRepeatAppendWait() throws {
        guard case .search(let search) = workflow.steps[1].kind,
            case .ask(let ask) = workflow.steps[2].kind,
            case .set(let set) = workflow.steps[3].kind,
            case .repeat(let loop) = workflow.steps[4].kind,
            case .append(let append) = loop.steps.first?.kind,
            case .wait(let wait) = loop.steps.last?.kind
        else {
            Issue.record("unexpected step kinds")
            return
        }
        #expect(search.query.expression?.description == "${input.query}")
        #expect(search.index?.value == "books")
        #expect(search.entity?.description == "Library.BookEntity")
        #expect(search.entity?.location.line == 13)
        #expect(search.limit?.literal?.text == "5")

        #expect(ask.answerType?.value == "Int")
        #expect(ask.defaultAnswer?.expression?.description == "${input.count}")
        let question = try #require(ask.question.template)
        #expect(question.segments.first == .text("How many copies of \""))
        guard case .expression(let queried) = question.segments[1] else {
            Issue.record("expected an expression in the question")
            return
        }
        #expect(queried.location == Location(file: "every.yaml", line: 17, column: 31, length: 14))

        #expect(set.variable.value == "titles")
        guard case .list(let empty, _) = set.value else {
            Issue.record("expected an empty list")
            return
        }
        #expect(empty.isEmpty)

        guard case .count(let count) = loop.mode else {
            Issue.record("expected a counted repeat")
            return
        }
        #expect(count.expression?.description == "${answer}")
        #expect(loop.itemName == "item")
        #expect(append.variable.value == "titles")
        #expect(append.value.template?.segments.count == 2)
        #expect(wait.duration.value == .milliseconds(500))
    }

    @Test func nestedConditions() {
        guard case .filter(let filter) = workflow.steps[5].kind,
            case .any(let alternatives, _) = filter.condition,
            alternatives.count == 2,
            case .comparison(let title) = alternatives[0],
            case .all(let both, _) = alternatives[1],
            both.count == 2,
            case .comparison(let pages) = both[0],
            case .comparison(let subtitle) = both[1]
        else {
            Issue.record("unexpected condition \(String(describing: self.workflow.steps[5].kind))")
            return
        }
        #expect(title.comparator == .hasPrefix)
        #expect(pages.comparator == .isBetween)
        guard case .range(let lower, let upper) = pages.operand else {
            Issue.record("expected a range")
            return
        }
        #expect(lower.literal?.text == "100" && upper.literal?.text == "300")
        #expect(subtitle.comparator == .hasNoValue && subtitle.operand == .absent)
        #expect(filter.sortBy.map(\.property.value) == ["title", "pages"])
        #expect(filter.sortBy.map(\.order) == [.ascending, .descending])
        #expect(filter.limit?.expression?.description == "${input.count}")

        guard case .find(let find) = workflow.steps[6].kind,
            case .all(let parts, _) = find.condition,
            parts.count == 2,
            case .all(let nameComparisons, _) = parts[0]
        else {
            Issue.record("unexpected find condition")
            return
        }
        #expect(find.entity.appName == nil && find.entity.name == "ShelfEntity")
        #expect(nameComparisons.count == 2)
    }

    @Test func ifWithAnyAndEscapedText() throws {
        guard case .if(let branch) = workflow.steps[7].kind,
            case .any(let alternatives, _) = branch.condition,
            case .show(let thenShow) = branch.thenSteps.first?.kind,
            case .show(let elseShow) = branch.elseSteps.first?.kind
        else {
            Issue.record("unexpected if step")
            return
        }
        #expect(alternatives.count == 2)
        let template = try #require(thenShow.value.template)
        #expect(template.segments.first == .text("${not an expression} and "))
        guard case .list(let elements, _) = elseShow.value else {
            Issue.record("expected a list")
            return
        }
        #expect(elements.count == 7)
        #expect(elements[0].expression != nil)
        #expect(elements[1].template != nil)
    }

    @Test func runMenuAndStop() {
        guard case .run(let run) = workflow.steps[8].kind,
            case .menu(let menu) = workflow.steps[9].kind,
            case .stop(let stop) = workflow.steps[10].kind
        else {
            Issue.record("unexpected steps")
            return
        }
        #expect(run.workflow.value == "Workflows/other.yaml")
        #expect(run.inputs.map(\.name.value) == ["title", "copies"])
        #expect(menu.prompt.template != nil)
        #expect(menu.options.map(\.title.value) == ["Again", "Stop"])
        guard case .perform(let perform) = menu.options[0].steps.first?.kind,
            case .stop(let emptyStop) = menu.options[1].steps.first?.kind
        else {
            Issue.record("unexpected option steps")
            return
        }
        #expect(perform.openWhenRun?.value == true)
        #expect(perform.intent.appName == nil)
        #expect(emptyStop.output == nil)
        #expect(stop.output?.expression?.description == "${titles}")
    }
}

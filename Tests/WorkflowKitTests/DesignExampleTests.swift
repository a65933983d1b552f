import Foundation
import Testing

@testable import WorkflowKit

/// The example of the design document loads into the expected model, with exact locations.
@Suite("Design example")
struct DesignExampleTests {
    static let fileName = "Workflows/add.yaml"

    let workflow: Workflow

    init() throws {
        workflow = try WorkflowLoader.load(text: try Fixtures.text("design-example"), fileName: Self.fileName)
    }

    func at(_ line: Int, _ column: Int, _ length: Int? = nil) -> Location {
        Location(file: Self.fileName, line: line, column: column, length: length)
    }

    @Test func header() {
        #expect(workflow.name == Located("Add and open a book", at: at(2, 7, 19)))
        #expect(workflow.description?.value == "Adds a book, then shows the newest books by the same author.")
        #expect(workflow.fileName == Self.fileName)
        #expect(workflow.steps.map(\.kind.keyword) == ["perform", "show", "find", "filter", "set", "if", "menu", "run"])
        #expect(workflow.steps.map { $0.id?.value } == ["book", nil, "recent", "older", nil, nil, nil, nil])
        #expect(
            workflow.output
                == .expression(
                    WorkflowExpression(
                        variable: Located("recent", at: at(39, 11, 6)), components: [], location: at(39, 9, 9)
                    )))
    }

    @Test func input() throws {
        let input = try #require(workflow.inputs.first)
        #expect(workflow.inputs.count == 1)
        #expect(input.name == Located("title", at: at(5, 3, 5)))
        #expect(input.type == Located("String", at: at(5, 18, 6)))
        let defaultValue = try #require(input.defaultValue?.literal)
        #expect(
            defaultValue
                == ScalarLiteral(
                    text: "Where the Crawdads Sing", rawText: "Where the Crawdads Sing",
                    tag: .string, style: .plain, location: at(5, 35, 23)
                ))
        #expect(input.description == nil)
    }

    @Test func performStep() throws {
        let step = workflow.steps[0]
        #expect(step.id == Located("book", at: at(7, 9, 4)))
        #expect(step.location == at(8, 5, 7))
        guard case .perform(let perform) = step.kind else {
            Issue.record("expected a perform step, got \(step.kind.keyword)")
            return
        }
        #expect(perform.intent == QualifiedName(appName: "Library", name: "AddBook", location: at(8, 14, 15)))
        #expect(perform.parameters.map(\.name.value) == ["title", "authorName"])
        #expect(perform.parameters[0].name.location == at(10, 7, 5))
        let title = try #require(perform.parameters[0].value.expression)
        #expect(title.description == "${input.title}")
        #expect(title.location == at(10, 14, 14))
        #expect(title.variable == Located("input", at: at(10, 16, 5)))
        #expect(title.components == [.property(Located("title", at: at(10, 22, 5)))])
        #expect(
            perform.parameters[1].value.literal
                == ScalarLiteral(
                    text: "Delia Owens", rawText: "Delia Owens", tag: .string, style: .plain, location: at(11, 19, 11)
                ))
        #expect(perform.openWhenRun == Located(false, at: at(12, 18, 5)))
        #expect(!perform.opensWhenRun)
    }

    @Test func showStepInterpolates() throws {
        guard case .show(let show) = workflow.steps[1].kind, let template = show.value.template else {
            Issue.record("expected a show step with a template")
            return
        }
        #expect(template.location == at(13, 11, 39))
        #expect(template.segments.count == 5)
        #expect(template.segments[0] == .text("Added "))
        #expect(template.segments[2] == .text(" ("))
        #expect(template.segments[4] == .text(")"))
        guard case .expression(let book) = template.segments[1], case .expression(let published) = template.segments[3] else {
            Issue.record("expected expressions at segments 1 and 3")
            return
        }
        #expect(book.location == at(13, 18, 7))
        #expect(book.variable.value == "book")
        #expect(published.location == at(13, 27, 21))
        #expect(published.components.map(\.propertyName) == ["datePublished"])
    }

    @Test func findStep() throws {
        guard case .find(let find) = workflow.steps[2].kind else {
            Issue.record("expected a find step")
            return
        }
        #expect(find.entity.description == "Library.BookEntity")
        #expect(find.limit?.literal?.tag == .int)
        #expect(find.limit?.literal?.text == "3")
        #expect(find.limit?.location == at(20, 12, 1))
        #expect(find.sortBy == [SortCriterion(property: Located("datePublished", at: at(19, 17, 13)), order: .descending)])
        guard case .all(let parts, _) = find.condition, parts.count == 2,
            case .comparison(let author) = parts[0], case .comparison(let published) = parts[1]
        else {
            Issue.record("expected all(author, datePublished), got \(String(describing: find.condition))")
            return
        }
        #expect(author.subject == .property(Located("author", at: at(17, 7, 6))))
        #expect(author.comparator == .equalTo)
        #expect(author.location == at(17, 17, 7))
        guard case .value(let authorValue) = author.operand else {
            Issue.record("expected a value operand")
            return
        }
        #expect(authorValue.expression?.description == "${book.author}")
        #expect(authorValue.location == at(17, 26, 14))
        #expect(published.comparator == .greaterThan)
        #expect(
            published.operand
                == .value(
                    .literal(
                        ScalarLiteral(
                            text: "1900-01-01", rawText: "1900-01-01", tag: .timestamp, style: .plain, location: at(18, 37, 10)
                        ))))
    }

    @Test func filterStep() throws {
        guard case .filter(let filter) = workflow.steps[3].kind else {
            Issue.record("expected a filter step")
            return
        }
        #expect(filter.list.expression?.description == "${recent}")
        #expect(filter.list.location == at(22, 13, 9))
        guard case .comparison(let comparison) = filter.condition else {
            Issue.record("expected a single comparison")
            return
        }
        #expect(comparison.subject == .property(Located("datePublished", at: at(23, 14, 13))))
        #expect(comparison.comparator == .lessThan)
        #expect(
            comparison.operand
                == .value(
                    .literal(
                        ScalarLiteral(
                            text: "2000-01-01", rawText: "2000-01-01", tag: .timestamp, style: .plain, location: at(23, 41, 10)
                        ))))
        #expect(filter.sortBy.isEmpty)
        #expect(filter.limit == nil)
    }

    @Test func setStepIsExactlyTheExpectedModel() {
        let expected = Step(
            id: nil,
            kind: .set(
                SetStep(
                    variable: Located("total", at: at(24, 10, 5)),
                    value: .expression(
                        WorkflowExpression(
                            variable: Located("recent", at: at(25, 11, 6)),
                            components: [.property(Located("count", at: at(25, 18, 5)))],
                            location: at(25, 9, 15)
                        ))
                )),
            location: at(24, 5, 3)
        )
        #expect(workflow.steps[4] == expected)
    }

    @Test func ifStepWithNestedRepeat() throws {
        guard case .if(let branch) = workflow.steps[5].kind else {
            Issue.record("expected an if step")
            return
        }
        guard case .comparison(let comparison) = branch.condition else {
            Issue.record("expected a single comparison")
            return
        }
        #expect(
            comparison.subject
                == .value(
                    .expression(
                        WorkflowExpression(
                            variable: Located("total", at: at(26, 20, 5)), components: [], location: at(26, 18, 8)
                        ))))
        #expect(comparison.comparator == .greaterThan)
        #expect(comparison.location == at(26, 28, 11))
        #expect(
            comparison.operand
                == .value(
                    .literal(
                        ScalarLiteral(
                            text: "0", rawText: "0", tag: .int, style: .plain, location: at(26, 41, 1)
                        ))))

        #expect(branch.thenSteps.count == 1)
        guard case .repeat(let loop) = branch.thenSteps.first?.kind,
            case .each(let list, let itemName) = loop.mode
        else {
            Issue.record("expected a repeat-each step")
            return
        }
        #expect(list.expression?.location == at(28, 25, 9))
        #expect(itemName == Located("b", at: at(28, 40, 1)))
        #expect(loop.itemName == "b")
        guard case .perform(let open) = loop.steps.first?.kind else {
            Issue.record("expected a perform step inside the repeat")
            return
        }
        #expect(open.intent.description == "Library.OpenBook")
        #expect(open.parameters.map(\.name.value) == ["book"])
        #expect(open.parameters.first?.value.expression?.location == at(31, 27, 4))
        #expect(open.opensWhenRun)

        guard case .stop(let stop) = branch.elseSteps.first?.kind else {
            Issue.record("expected a stop step in else")
            return
        }
        #expect(stop.output?.literal?.text == "Nothing found")
        #expect(stop.output?.location == at(33, 15, 13))
    }

    @Test func menuStep() throws {
        guard case .menu(let menu) = workflow.steps[6].kind else {
            Issue.record("expected a menu step")
            return
        }
        #expect(menu.prompt.literal?.text == "What next?")
        #expect(menu.prompt.location == at(34, 11, 10))
        #expect(menu.options.map(\.title.value) == ["Open my shelf", "Nothing"])
        #expect(menu.options[0].title.location == at(36, 7, 13))
        #expect(menu.options[1].steps.isEmpty)
        guard case .perform(let open) = menu.options[0].steps.first?.kind else {
            Issue.record("expected a perform step in the first option")
            return
        }
        #expect(open.intent.description == "Library.OpenShelf")
        #expect(open.parameters.first?.name.value == "shelf")
        #expect(open.parameters.first?.value.literal?.text == "currentlyReading")
    }

    @Test func runStep() {
        guard case .run(let run) = workflow.steps[7].kind else {
            Issue.record("expected a run step")
            return
        }
        #expect(run.workflow == Located("Workflows/other.yaml", at: at(38, 10, 20)))
        #expect(run.inputs.isEmpty)
    }

    @Test func automation() throws {
        let automation = try #require(workflow.automation)
        #expect(automation.schedule == Located("0 9 * * MON-FRI", at: at(41, 13, 17)))
        #expect(automation.timeZone?.value == "Europe/Paris")
        #expect(automation.overlap == .skip)
        #expect(automation.catchUp == .latest)
        #expect(automation.timeout?.value == .seconds(600))
        #expect(automation.retry?.attempts == 3)
        #expect(automation.retry?.backoff == .seconds(30))
        #expect(automation.isEnabled)
        #expect(automation.location.line == 41)
    }
}

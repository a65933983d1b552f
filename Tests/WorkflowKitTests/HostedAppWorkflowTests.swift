import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Workflows that use the intents and entities of an app known by its metadata, beside a Swift app.
struct HostedAppWorkflowTests {
    let host = BookshopHost()
    var catalog: IntentCatalog { IntentCatalog(apps: [IntentApp(name: "Notes", intents: [ReadNote.self]), host.app]) }

    func problems(_ text: String) throws -> [String] {
        WorkflowValidator(catalog: catalog).validate(try WorkflowLoader.load(text: text, fileName: "shop.yaml")).map(summary)
    }

    func run(_ text: String, interaction: any Interaction = NoInteraction()) async throws -> WorkflowRunResult {
        let workflow = try WorkflowLoader.load(text: text, fileName: "shop.yaml")
        if interaction is NoInteraction { #expect(WorkflowValidator(catalog: catalog).validate(workflow).map(summary) == []) }
        return try await WorkflowRunner(catalog: catalog, interaction: interaction, history: nil, secrets: nil).run(workflow)
    }

    @Test func aRunStartsTheHostsItsStepsNameAsItBeginsOnceEach() async throws {
        let result = try await run(
            """
            steps:
              - show: Looking for a book
              - if: ${true}
                then:
                  - id: books
                    find: Bookshop.BookItem
                    limit: 1
                  - perform: Bookshop.Describe
                    with: { book: "${books[0]}" }
            output: ok
            """)
        #expect(result.output == .string("ok"))
        #expect(host.prepared == 1)
        #expect(host.preparedBeforeFirstRequest == 1)
    }

    @Test func aRunWhoseStepsNameNoHostedAppStartsNone() async throws {
        _ = try await run(
            """
            steps:
              - show: Nothing hosted
            """)
        #expect(host.prepared == 0)
    }

    @Test func findPushesWhereSortByAndLimitDownToTheHost() async throws {
        let result = try await run(
            """
            steps:
              - id: books
                find: Bookshop.BookItem
                where:
                  author: { equalTo: Jane Austen }
                  pages: { greaterThan: "100" }
                sortBy: [ { pages: ascending } ]
                limit: 1
              - id: said
                perform: Bookshop.Describe
                with: { book: "${books[0]}" }
            output: "${said} (${books[0].published})"
            """)
        #expect(result.output == .string("Persuasion by Jane Austen (1817-12-20)"))
        #expect(
            host.queries.first
                == .properties(
                    conditions: [
                        PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Jane Austen")]),
                        PropertyCondition(property: "pages", comparator: .greaterThan, operands: [.int(100)])
                    ], mode: .and, sort: [PropertySort(property: "pages", order: .ascending)], limit: 1))
        #expect(host.performed.map(\.intent) == ["Describe"])
    }

    @Test func aWhereThatCannotBePushedDownIsFilteredInTheEngine() async throws {
        let result = try await run(
            """
            steps:
              - id: books
                find: Bookshop.BookItem
                where:
                  title: { hasPrefix: Leaves }
                  author: { hasValue: true }
            output: "${books.count} ${books[0].title}"
            """)
        #expect(result.output == .string("1 Leaves of Grass"))
        #expect(host.queries == [.properties(conditions: [], mode: .and, sort: [], limit: nil)])
    }

    @Test func enumAndEntityParametersOfAHostedIntent() async throws {
        let result = try await run(
            """
            steps:
              - id: added
                perform: Bookshop.AddBook
                with: { title: Dune, pages: 412, genre: Novel }
            output: "${added.title} ${added.pages} ${added.genre.title}"
            """)
        #expect(result.output == .string("Dune 412 Novel"))
    }

    @Test func aMissingValueIsAskedThroughTheRunsInteraction() async throws {
        let result = try await run(
            """
            steps:
              - id: said
                perform: Bookshop.Describe
            output: ${said}
            """, interaction: ScriptedInteraction(answers: ["book": "b1"]))
        #expect(result.output == .string("Emma by Jane Austen"))
    }

    @Test func theHostsErrorFailsTheStepWithItsMessage() async throws {
        let workflow = try WorkflowLoader.load(text: "steps:\n  - perform: Bookshop.Fail\n", fileName: "shop.yaml")
        do {
            _ = try await WorkflowRunner(catalog: catalog, history: nil, secrets: nil).run(workflow)
            Issue.record("expected the run to fail")
        } catch let error as WorkflowRunError {
            #expect("\(error)".contains("the shelf is locked"))
        }
    }

    @Test func aQueryTheHostFailsFailsTheStepWithItsMessage() async throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - perform: Bookshop.Describe\n    with: { book: unreadable }\n", fileName: "shop.yaml")
        do {
            _ = try await WorkflowRunner(catalog: catalog, history: nil, secrets: nil).run(workflow)
            Issue.record("expected the run to fail")
        } catch let error as WorkflowRunError {
            #expect("\(error)".contains("shop.yaml:2:14: error: Bookshop.Describe failed: the catalogue is unreadable"))
        }
    }

    @Test func cancellingTheRunCancelsTheHostedPerform() async throws {
        let workflow = try WorkflowLoader.load(text: "steps:\n  - perform: Bookshop.Wait\n", fileName: "shop.yaml")
        let run = Task { try await WorkflowRunner(catalog: catalog, history: nil, secrets: nil).run(workflow) }
        // Cancel once the host is waiting, however slowly the machine gets there.
        try await eventually(watching: [.notice(host.performReceived)]) { !host.performed.isEmpty }
        run.cancel()
        await #expect(throws: (any Error).self) { _ = try await run.value }
        #expect(host.cancelled == 1)
    }

    @Test func validationLocatesUnknownParametersPropertiesAndCases() throws {
        #expect(
            try problems(
                """
                steps:
                  - perform: Bookshop.Echo
                    with: { txet: hi }
                  - find: Bookshop.BookItem
                    where: { pagse: { equalTo: 3 } }
                    sortBy: [ { author: ascending } ]
                  - id: book
                    perform: Bookshop.AddBook
                    with: { title: Dune, pages: 3 }
                  - show: "${book.isbn}"
                  - perform: Bookshop.Desribe
                """)
                == [
                    "2:14: missing required parameter 'text' of 'Bookshop.Echo', and the run cannot ask for it",
                    "3:13: unknown parameter 'txet' for intent 'Bookshop.Echo'",
                    "5:14: BookItem has no property 'pagse'",
                    "6:17: BookItem cannot be sorted by 'author'",
                    "10:19: BookItem has no property 'isbn'",
                    "11:14: unknown intent 'Bookshop.Desribe'"
                ])
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - perform: Bookshop.Echo\n    with: { txet: hi }\n", fileName: "shop.yaml")
        let diagnostic = try #require(WorkflowValidator(catalog: catalog).validate(workflow).first { $0.message.hasPrefix("unknown parameter") })
        #expect(diagnostic.help == "did you mean 'text'?")
    }

    @Test func literalsAreCheckedAgainstHostedTypes() throws {
        let found = try problems(
            """
            input:
              genre: { type: Genre }
              book: { type: "[Bookshop.BookItem]" }
            steps:
              - perform: Bookshop.Echo
                with: { text: hi, count: many, genre: drama }
            """)
        #expect(found.count == 2)
        #expect(found.first?.hasPrefix("6:30: ") == true)
        #expect(found.first?.contains("'many'") == true)
        #expect(found.last?.hasPrefix("6:43: ") == true)
        #expect(found.last?.contains("one of essay, novel, poetry") == true)
    }

    @Test func inputsTypedByHostedEntitiesAndEnumsResolveThroughTheHost() async throws {
        let workflow = try WorkflowLoader.load(
            text: """
                input:
                  book: { type: BookItem }
                  genre: { type: Genre }
                steps: []
                output: "${input.book.author}, ${input.genre.title}"
                """, fileName: "shop.yaml")
        #expect(WorkflowValidator(catalog: catalog).validate(workflow).map(summary) == [])
        let result = try await WorkflowRunner(catalog: catalog, history: nil, secrets: nil)
            .run(workflow, inputs: ["book": .string("grass"), "genre": .string("Essays")])
        #expect(result.output == .string("Walt Whitman, Essays"))
    }

    @Test func theSchemaListsHostedIntentsAndTheirParameters() throws {
        let schema = try WorkflowSchema.specialized(for: catalog)
        #expect(schema.contains("\"Bookshop.Describe\""))
        #expect(schema.contains("\"Bookshop.BookItem\""))
        #expect(schema.contains("Book (BookItem)"))
    }
}

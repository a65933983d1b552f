import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `ask:` with `choose:` offers a list computed at run time, answered by label or number.
@Suite("Choose from a list")
struct ChooseTests {
    let catalog = IntentCatalog(apps: [])

    func run(_ text: String, answers: [String: String]) async throws -> IntentValue {
        let workflow = try WorkflowLoader.load(text: text, fileName: "choose.yaml")
        let problems = WorkflowValidator(catalog: catalog, answeredNames: Set(answers.keys)).validate(workflow)
        #expect(problems.isEmpty, "\(problems)")
        return try await WorkflowRunner(catalog: catalog, interaction: ScriptedInteraction(answers: answers), secrets: nil).run(workflow)
            .output
    }

    static let books = """
        steps:
          - set: books
            to: [Emma, Persuasion, "Mansfield Park", 1984]
          - id: picked
            ask: Which book?
            choose: ${books}
        output: ${picked}
        """

    @Test func oneElementIsChosenByLabelOrNumber() async throws {
        #expect(try await run(Self.books, answers: ["picked": "persuasion"]) == .string("Persuasion"))
        #expect(try await run(Self.books, answers: ["picked": "3"]) == .string("Mansfield Park"))
        #expect(try await run(Self.books, answers: ["picked": "1984"]) == .int(1984))
    }

    @Test func severalElementsComeInTheListsOrder() async throws {
        let several = Self.books.replacingOccurrences(of: "choose: ${books}", with: "choose: ${books}\n    multiple: true")
        #expect(
            try await run(several, answers: ["picked": "Mansfield Park, Emma"]) == .list([.string("Emma"), .string("Mansfield Park")]))
        #expect(try await run(several, answers: ["picked": "2"]) == .list([.string("Persuasion")]))
    }

    @Test func anAnswerThatNamesNoOptionFails() async throws {
        await #expect {
            try await run(Self.books, answers: ["picked": "Ulysses"])
        } throws: { error in
            "\(error)".contains("'Ulysses'") && "\(error)".contains("'Mansfield Park', '1984'")
        }
        let several = Self.books.replacingOccurrences(of: "choose: ${books}", with: "choose: ${books}\n    multiple: true")
        await #expect {
            try await run(several, answers: ["picked": "Emma, Ulysses"])
        } throws: { error in
            "\(error)".contains("'Ulysses'") && "\(error)".contains("choose.yaml:5:5:")
        }
    }

    @Test func anEmptyListIsALocatedRunError() async throws {
        let empty = Self.books.replacingOccurrences(of: "[Emma, Persuasion, \"Mansfield Park\", 1984]", with: "[]")
        await #expect {
            try await run(empty, answers: ["picked": "1"])
        } throws: { error in
            "\(error)".contains("choose.yaml:6:13: error: there is nothing to choose from")
        }
    }

    @Test func badChoicesAreLocated() throws {
        for (text, message) in [
            ("steps:\n  - ask: Which?\n    multiple: true\n", "'multiple' is only allowed with 'choose'"),
            ("steps:\n  - ask: Which?\n    choose: [a]\n    type: Int\n", "'type' is not allowed with 'choose'")
        ] {
            #expect {
                try WorkflowLoader.load(text: text, fileName: "bad.yaml")
            } throws: { error in
                "\(error)".contains(message) && ("\(error)".contains("bad.yaml:3:5") || "\(error)".contains("bad.yaml:4:5"))
            }
        }
        let notAList = try WorkflowLoader.load(text: "steps:\n  - ask: Which?\n    choose: 3\n", fileName: "bad.yaml")
        #expect(
            WorkflowValidator(catalog: catalog, isHeadless: false).validate(notAList).map(\.message).contains { $0.contains("'choose' needs a list") }
        )
    }
}

import Foundation
import IntentKit
import Testing

/// Lines typed at a terminal, and what the terminal showed.
final class FakeTerminal: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]
    private var shown = ""

    init(_ lines: [String]) { self.lines = lines }

    var transcript: String { lock.withLock { shown } }

    var interaction: TerminalInteraction {
        TerminalInteraction(
            input: { [self] in lock.withLock { lines.isEmpty ? nil : lines.removeFirst() } },
            output: { [self] text in lock.withLock { shown += text } })
    }
}

struct InteractionTests {
    @Test func noInteractionFailsWithTheQuestion() async throws {
        do {
            _ = try await IntentPerformer(catalog: testCatalog, interaction: NoInteraction()).perform("AskTwice", arguments: [:])
            Issue.record("expected the run to fail")
        } catch {
            #expect("\(error)" == "Test.AskTwice needs an answer but cannot ask: \"What is your name?\"")
            guard case .interaction(_, .cannotAsk(let question)) = error as? IntentError else {
                Issue.record("expected a question that cannot be asked, got \(error)")
                return
            }
            #expect(question.name == "name" && question.kind == "value")
        }
    }

    @Test func scriptedAnswersAnswerAndRunTheIntentAgain() async throws {
        let outcome = try await IntentPerformer(catalog: testCatalog, interaction: ScriptedInteraction(answers: ["name": "Ada"]))
            .perform("AskTwice", arguments: [:])
        #expect(outcome.dialog == "Hello Ada")
    }

    @Test func scriptedChoicesMatchTitlesOrNumbers() async throws {
        let scripted = ScriptedInteraction(answers: ["pick": "2", "other": "blue"])
        #expect(try await scripted.requestChoice(ChoiceRequest(name: "pick", question: "?", options: ["Red", "Blue"])) == 1)
        #expect(try await scripted.requestChoice(ChoiceRequest(name: "other", question: "?", options: ["Red", "Blue"])) == 1)
        await #expect(throws: InteractionError.self) {
            try await ScriptedInteraction(answers: ["pick": "green"]).requestChoice(ChoiceRequest(name: "pick", question: "?", options: ["Red"]))
        }
    }

    @Test func scriptedConfirmationsUseAnswersThenYes() async throws {
        let scripted = ScriptedInteraction(answers: ["delete": "no"], confirmAll: true)
        #expect(try await scripted.requestConfirmation(ConfirmationRequest(name: "delete", question: "Delete?")) == false)
        #expect(try await scripted.requestConfirmation(ConfirmationRequest(name: "other", question: "Go?")))
        await #expect(throws: InteractionError.self) {
            try await ScriptedInteraction().requestConfirmation(ConfirmationRequest(name: "x", question: "Go?"))
        }
    }

    @Test func theTerminalPromptsAndReadsAnswers() async throws {
        let terminal = FakeTerminal(["Grace"])
        let outcome = try await IntentPerformer(catalog: testCatalog, interaction: terminal.interaction).perform("AskTwice", arguments: [:])
        #expect(outcome.dialog == "Hello Grace")
        #expect(terminal.transcript == "What is your name?\n> ")
    }

    @Test func theTerminalNumbersChoicesAndRepeatsUnclearAnswers() async throws {
        let terminal = FakeTerminal(["purple", "2", "maybe", "y"])
        let index = try await terminal.interaction.requestChoice(ChoiceRequest(name: "c", question: "Which color?", options: ["Red", "Blue"]))
        #expect(index == 1)
        #expect(try await terminal.interaction.requestConfirmation(ConfirmationRequest(name: "c", question: "Sure?")))
        #expect(terminal.transcript.contains("  1. Red\n  2. Blue\n"))
        #expect(terminal.transcript.contains("Type a number from 1 to 2"))
        #expect(terminal.transcript.contains("Please answer y or n."))
        await #expect(throws: InteractionError.endOfInput(question: "More?")) {
            try await terminal.interaction.requestConfirmation(ConfirmationRequest(name: "c", question: "More?"))
        }
    }

    @Test func entitiesWithTheSameTitlePrefixAreDisambiguated() async throws {
        let chosen = try await EntityResolver.resolve(
            .string("r"), as: Color.self, name: "color", interaction: ScriptedInteraction(answers: ["color": "Rose"]))
        #expect(chosen.displayText == "Rose")
        await #expect(throws: InteractionError.self) {
            try await EntityResolver.resolve(.string("r"), as: Color.self, name: "color", interaction: NoInteraction())
        }
    }
}

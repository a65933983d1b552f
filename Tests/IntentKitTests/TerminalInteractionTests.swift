import Foundation
import IntentKit
import Synchronization
import Testing

/// Paints with a color that must be given; the question lists the suggested colors.
struct Paint: AppIntent {
    static let title: LocalizedStringResource = "Paint"
    @Parameter(title: "Color") var color: Color

    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Painted \(color.name)")
    }
}

struct TerminalInteractionTests {
    @Test func aMissingEntityListsTheSuggestionsAndANumberPicksOne() async throws {
        let prompts = Mutex("")
        let terminal = TerminalInteraction(input: { "2" }, output: { text in prompts.withLock { $0 += text } })
        let catalog = IntentCatalog(apps: [IntentApp(name: "Paints", intents: [Paint.self])])
        let outcome = try await IntentPerformer(catalog: catalog, interaction: terminal).perform("Paint", arguments: [:])
        #expect(outcome.dialog == "Painted Rose")
        #expect(prompts.withLock { $0 }.hasSuffix("  1. Red\n  2. Rose\n  3. Blue\n> "))
    }

    @Test func aTitleIsStillAnAnswer() async throws {
        let terminal = TerminalInteraction(input: { "blue" }, output: { _ in })
        let catalog = IntentCatalog(apps: [IntentApp(name: "Paints", intents: [Paint.self])])
        let outcome = try await IntentPerformer(catalog: catalog, interaction: terminal).perform("Paint", arguments: [:])
        #expect(outcome.dialog == "Painted Blue")
    }
}

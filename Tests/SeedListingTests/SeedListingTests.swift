import Foundation
import IntentKit
import Testing

let seedApp = IntentApp(
    name: "Seed",
    intents: [
        OpenCurrentlyReading.self, OpenShelf.self, OpenBook.self, AddBookOpening.self, AddBookWithDialog.self,
        AddBookWithSnippet.self, AddBookRequestingValue.self, AddBookDisambiguating.self, AddBookConfirming.self,
        BuyBook.self
    ],
    entities: [BookEntity.self, BasicBookEntity.self],
    shortcuts: LibraryAppShortcuts.self)

/// Records every question asked, and answers like a scripted interaction.
final class RecordingInteraction: Interaction, @unchecked Sendable {
    let scripted: ScriptedInteraction
    private let lock = NSLock()
    private var asked: [String] = []

    init(answers: [String: String] = [:], confirmAll: Bool = false) {
        scripted = ScriptedInteraction(answers: answers, confirmAll: confirmAll)
    }

    var questions: [String] { lock.withLock { asked } }

    func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        lock.withLock { asked.append(request.question) }
        return try await scripted.requestValue(request)
    }

    func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        lock.withLock { asked.append(request.question + " " + request.options.joined(separator: "|")) }
        return try await scripted.requestChoice(request)
    }

    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        lock.withLock { asked.append(request.question) }
        return try await scripted.requestConfirmation(request)
    }
}

@Suite(.serialized)
struct SeedListingTests {
    init() {
        Database.shared.reset()
        Navigator.shared.reset()
    }

    func performer(_ interaction: any Interaction) -> IntentPerformer {
        IntentPerformer(catalog: IntentCatalog(apps: [seedApp]), interaction: interaction)
    }

    @Test func openCurrentlyReadingOpensTheShelf() async throws {
        let outcome = try await performer(NoInteraction()).perform("Seed.OpenCurrentlyReading", arguments: [:])
        #expect(outcome.value == nil)
        #expect(Navigator.shared.history == ["shelf:currentlyReading"])
        #expect(OpenCurrentlyReading.openAppWhenRun)
    }

    @Test func openShelfTakesAShelfByTitleAndRendersItsSummary() async throws {
        _ = try await performer(NoInteraction()).perform("OpenShelf", arguments: ["shelf": .string("Want to Read")])
        #expect(Navigator.shared.history == ["shelf:wantToRead"])
        let intent = OpenShelf()
        intent.shelf = .read
        #expect(ParameterSummaryRenderer.render(intent).text == "Open Read")
        #expect(ParameterSummaryRenderer.render(OpenShelf.self).template == "Open ${shelf}")
    }

    @Test func openShelfAsksForTheMissingShelf() async throws {
        let interaction = RecordingInteraction(answers: ["shelf": "read"])
        _ = try await performer(interaction).perform("OpenShelf", arguments: [:])
        #expect(interaction.questions == ["Which Shelf?"])
        #expect(Navigator.shared.history == ["shelf:read"])
    }

    @Test func addBookReturnsTheBookAndOpensIt() async throws {
        let interaction = RecordingInteraction(confirmAll: true)
        let outcome = try await performer(interaction).perform(
            "AddBookOpening", arguments: ["title": .string("Where the Crawdads Sing"), "recommendedBy": .string("Sam")])
        guard case .entity(let book)? = outcome.value else {
            Issue.record("expected a book, got \(String(describing: outcome.value))")
            return
        }
        #expect(book.title == "Where the Crawdads Sing")
        #expect(book.properties["datePublished"] == .date(DateText.parse("2018-08-14")!))
        #expect(outcome.opened.map(\.intentName) == ["Seed.OpenBook"])
        #expect(interaction.questions == ["Are you sure you want to clear read state for Where the Crawdads Sing?"])
        #expect(Navigator.shared.history == ["book:Where the Crawdads Sing"])
        #expect(Database.shared.books.first?.recommendedBy == "Sam")
        #expect(AddBookOpening.resultShape.description == "ReturnsValue<BookEntity> & OpensIntent")
    }

    @Test func addBookReportsALocalizedErrorForAnUnknownTitle() async throws {
        await #expect(throws: IntentError.self) {
            try await performer(NoInteraction()).perform("AddBookWithDialog", arguments: ["title": .string("No Such Book")])
        }
        do {
            _ = try await performer(NoInteraction()).perform("AddBookWithDialog", arguments: ["title": .string("No Such Book")])
        } catch {
            #expect("\(error)" == "Seed.AddBookWithDialog failed: Book Not Found")
        }
    }

    @Test func addBookSaysWhatItAdded() async throws {
        let outcome = try await performer(NoInteraction()).perform("AddBookWithDialog", arguments: ["title": .string("Emma")])
        #expect(outcome.dialog == "Added Emma to Library!")
        #expect(AddBookWithDialog.resultShape.providesDialog)
    }

    @Test func addBookShowsACoverSnippet() async throws {
        let outcome = try await performer(NoInteraction()).perform("AddBookWithSnippet", arguments: ["title": .string("Emma")])
        let snippet = try #require(outcome.snippet)
        #expect(snippet.contains("│ Emma"))
        #expect(snippet.hasPrefix("┌─ Cover ─"))
    }

    @Test func addBookRequestsTheAuthorOfAnAmbiguousTitle() async throws {
        do {
            _ = try await performer(NoInteraction()).perform("AddBookRequestingValue", arguments: ["title": .string("Nemesis")])
            Issue.record("expected the question to fail without interaction")
        } catch {
            #expect("\(error)".contains("cannot ask: \"Who wrote the book?\""))
            guard case .interaction(_, .cannotAsk(let question)) = error as? IntentError else {
                Issue.record("expected a question that cannot be asked, got \(error)")
                return
            }
            #expect(question.name == "authorName")
        }
        let interaction = RecordingInteraction(answers: ["authorName": "Roth"])
        _ = try await performer(interaction).perform("AddBookRequestingValue", arguments: ["title": .string("Nemesis")])
        #expect(interaction.questions == ["Who wrote the book?"])
    }

    @Test func addBookDisambiguatesAmongAuthors() async throws {
        let interaction = RecordingInteraction(answers: ["authorName": "philip roth"])
        _ = try await performer(interaction).perform("AddBookDisambiguating", arguments: ["title": .string("Nemesis")])
        #expect(interaction.questions == ["Which author? Agatha Christie|Philip Roth"])
        await #expect(throws: IntentError.self) {
            try await performer(NoInteraction()).perform("AddBookDisambiguating", arguments: ["title": .string("Nemesis")])
        }
    }

    @Test func addBookConfirmsTheBookItFound() async throws {
        let interaction = RecordingInteraction(answers: ["title": "yes"])
        let outcome = try await performer(interaction).perform("AddBookConfirming", arguments: ["title": .string("emma")])
        #expect(interaction.questions == ["Did you mean Emma?"])
        #expect(outcome.value?.displayText == "Emma")
    }

    @Test func buyBookConfirmsTheOrderWithAPreview() async throws {
        let emma = BooksAPI.shared.catalog[3]
        Database.shared.add(book: emma)
        let interaction = RecordingInteraction(confirmAll: true)
        let outcome = try await performer(interaction).perform(
            "BuyBook", arguments: ["book": .string("Emma"), "count": .string("2")])
        #expect(interaction.questions == ["Are you ready to order?"])
        #expect(outcome.dialog == "Thank you for your order!")
        #expect(outcome.snippet == "Ordered 2 of Emma")
        #expect(outcome.value?.displayText == "2 × Emma")

        do {
            _ = try await performer(RecordingInteraction(answers: ["confirm": "no"])).perform(
                "BuyBook", arguments: ["book": .string("Emma"), "count": .int(1)])
            Issue.record("a declined order must not complete")
        } catch {
            #expect("\(error)".contains("not confirmed: \"Are you ready to order?\""))
        }
    }

    @Test func bookPropertiesAreKnownWithoutStoredBooks() {
        let capabilities = EntityQueries.capabilities(of: BookEntity.self)
        #expect(capabilities.properties.map(\.name) == ["title", "datePublished", "dateRead"])
        #expect(capabilities.properties.map(\.comparators) == [[.equalTo, .contains], [.lessThan, .greaterThan], [.lessThan, .greaterThan]])
        #expect(capabilities.properties.allSatisfy { $0.isSortable })
        #expect(capabilities.properties[2].type == .optional(.date))
    }

    @Test func thePropertyQueryFindsSortsAndLimits() async throws {
        for book in BooksAPI.shared.catalog { Database.shared.add(book: book) }
        let found = try await EntityQueries.find(
            BookEntity.self,
            conditions: [PropertyCondition(property: "datePublished", comparator: .greaterThan, operands: [.string("1900-01-01")])],
            sortedBy: [PropertySort(property: "datePublished", order: .descending)], limit: 2)
        #expect(found.map(\.displayText) == ["Where the Crawdads Sing", "Nemesis"])
        await #expect(throws: EntityQueryError.self) {
            try await EntityQueries.find(
                BookEntity.self, conditions: [PropertyCondition(property: "title", comparator: .hasPrefix, operands: [.string("N")])])
        }
    }

    @Test func theStringQueryFindsBooksByTitle() async throws {
        for book in BooksAPI.shared.catalog { Database.shared.add(book: book) }
        let found = try await StringBookQuery().entities(matching: "nem")
        #expect(found.count == 2)
        let basic = try await BasicBookQuery().entities(for: [found[0].id])
        #expect(basic.first?.title == "Nemesis")
    }

    @Test func thePhraseRunsItsShortcut() async throws {
        let match = try #require(
            await PhraseMatcher(catalog: IntentCatalog(apps: [seedApp]), locale: "en")
                .match("open currently reading in seed."))
        #expect(match.template == "Open Currently Reading in ${applicationName}")
        _ = try await performer(NoInteraction()).perform(instance: match.intent, in: match.app)
        #expect(Navigator.shared.history == ["shelf:currentlyReading"])
    }
}

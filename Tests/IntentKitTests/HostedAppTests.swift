import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Synchronization
import Testing

/// Records the questions asked, then answers them from a script.
final class RecordingInteraction: Interaction {
    private let asked = Mutex<[ValueRequest]>([])
    private let script: ScriptedInteraction

    init(answers: [String: String]) { script = ScriptedInteraction(answers: answers) }

    var requests: [ValueRequest] { asked.withLock { $0 } }

    func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        asked.withLock { $0.append(request) }
        return try await script.requestValue(request)
    }

    func requestChoice(_ request: ChoiceRequest) async throws -> Int { try await script.requestChoice(request) }

    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool { try await script.requestConfirmation(request) }
}

struct HostedAppTests {
    let host = BookshopHost()
    var catalog: IntentCatalog { IntentCatalog(apps: [testApp, host.app]) }

    func perform(
        _ name: String, _ arguments: [String: IntentValue], interaction: any Interaction = NoInteraction(), opens: Bool = true
    ) async throws -> PerformOutcome {
        try await IntentPerformer(catalog: catalog, interaction: interaction, runsOpenedIntents: opens).perform(name, arguments: arguments)
    }

    @Test func theCatalogFindsHostedIntentsEntitiesAndEnumsByName() throws {
        let found = try catalog.intent(named: "Describe")
        #expect(found.name == "Bookshop.Describe")
        #expect(found.type == nil)
        #expect(found.definition.title == "Describe Book")
        #expect(try catalog.entity(named: "BookItem").name == "Bookshop.BookItem")
        #expect(catalog.allIntents.map(\.name).contains("Test.AskTwice"))
        let echo = try catalog.intent(named: "Bookshop.Echo").definition
        #expect(echo.parameters.map(\.type.description) == ["String", "Int", "Date?", "[String]?", "[String: String]?", "Genre?"])
        #expect(echo.parameters.map(\.isRequired) == [true, false, false, false, false, false])
        guard case .entity(let book)? = try catalog.intent(named: "AddBook").definition.resultShape.valueType else {
            Issue.record("AddBook should return an entity")
            return
        }
        #expect(book.name == "BookItem")
        #expect(EntityQueries.capabilities(of: book).properties.first { $0.name == "pages" }?.comparators.contains(.isBetween) == true)
        #expect(host.app.enumTypes.map(\.name) == ["Genre"])
    }

    @Test func argumentsAreCoercedToTheDeclaredTypesAndDefaultsFilledIn() async throws {
        _ = try await perform(
            "Bookshop.Echo", ["text": .int(7), "when": .string("2018-08-14"), "tags": .string("a"), "genre": .string("Poetry")])
        let arguments = try #require(host.performed.last?.arguments)
        #expect(arguments["text"] == .string("7"))
        #expect(arguments["count"] == .int(2))
        #expect(arguments["when"] == .date(try #require(DateText.parse("2018-08-14"))))
        #expect(arguments["tags"] == .list([.string("a")]))
        #expect(arguments["genre"] == .enumCase(EnumCaseValue(typeName: "Genre", rawValue: "poetry", title: "Poetry")))
    }

    @Test func aValueOfTheWrongTypeNamesTheParameter() async throws {
        do {
            _ = try await perform("Bookshop.Echo", ["text": .string("hi"), "count": .string("three")])
            Issue.record("expected a wrong type to fail")
        } catch let error as IntentError {
            guard case .invalidValue(let intent, let parameter, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(intent == "Bookshop.Echo")
            #expect(parameter == "count")
            #expect(reason.contains("'three'"))
        }
        do {
            _ = try await perform("Bookshop.Echo", ["text": .string("hi"), "genre": .string("drama")])
            Issue.record("expected an unknown case to fail")
        } catch {
            #expect("\(error)".contains("genre"))
            #expect("\(error)".contains("essay, novel, poetry"))
        }
        #expect(host.performed.isEmpty)
    }

    @Test func anUnknownParameterGetsADidYouMean() async throws {
        do {
            _ = try await perform("Bookshop.Echo", ["txet": .string("hi")])
            Issue.record("expected an unknown parameter to fail")
        } catch let error as IntentError {
            guard case .unknownParameter(let intent, let name, let suggestion, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(intent == "Bookshop.Echo")
            #expect(name == "txet")
            #expect(suggestion == "text")
        }
    }

    @Test func anEntityParameterGivenByTitleResolvesThroughMatching() async throws {
        let outcome = try await perform("Describe", ["book": .string("persuasion")])
        #expect(outcome.value == .string("Persuasion by Jane Austen"))
        #expect(outcome.dialog == "Persuasion is on the shelf.")
        #expect(outcome.details == ["identifier": .string("b2")])
        #expect(host.queries == [.identifiers(["persuasion"]), .matching("persuasion")])
    }

    @Test func anEntityParameterGivenByIdentifierResolvesThroughIdentifiers() async throws {
        let outcome = try await perform("Describe", ["book": .string("b3")])
        #expect(outcome.value == .string("Leaves of Grass by Walt Whitman"))
        #expect(host.queries == [.identifiers(["b3"])])
        guard case .entity(let book) = host.performed.last?.arguments["book"] else {
            Issue.record("the host should get an entity")
            return
        }
        #expect(book.properties["published"] == .date(try #require(DateText.parse("1855-07-04"))))
    }

    @Test func severalMatchesAreChosenThroughTheInteraction() async throws {
        let outcome = try await perform(
            "Describe", ["book": .string("s")], interaction: ScriptedInteraction(answers: ["book": "Leaves of Grass (Walt Whitman)"]))
        #expect(outcome.value == .string("Leaves of Grass by Walt Whitman"))
    }

    @Test func aMissingValueIsAskedWithSuggestedTitles() async throws {
        let interaction = RecordingInteraction(answers: ["book": "Emma"])
        let outcome = try await perform("Describe", [:], interaction: interaction)
        #expect(outcome.value == .string("Emma by Jane Austen"))
        let request = try #require(interaction.requests.first)
        #expect(request.question == "Which book?")
        #expect(request.suggestions == ["Emma", "Persuasion", "Leaves of Grass"])
        #expect(host.queries.first == .suggested)
    }

    @Test func aMissingValueWithNoOneToAskFailsWithTheQuestion() async throws {
        do {
            _ = try await perform("Describe", [:])
            Issue.record("expected the perform to fail")
        } catch let error as IntentError {
            guard case .interaction(let intent, .cannotAsk(let question)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(intent == "Bookshop.Describe")
            #expect(question.text == "Which book?")
        }
    }

    @Test func theHostAsksThroughThePerformersInteraction() async throws {
        let outcome = try await perform("AskTitle", [:], interaction: ScriptedInteraction(answers: ["title": "Middlemarch"]))
        #expect(outcome.value == .string("Middlemarch"))
    }

    @Test func anEnumAndAReturnedEntityConvertByTheDeclaredTypes() async throws {
        let outcome = try await perform("AddBook", ["title": .string("Dune"), "pages": .string("412"), "genre": .string("novel")])
        guard case .entity(let book) = outcome.value else {
            Issue.record("expected an entity, got \(String(describing: outcome.value))")
            return
        }
        #expect(book.typeName == "BookItem")
        #expect(book.identifier == "b4")
        #expect(book.properties["pages"] == .int(412))
        #expect(book.properties["genre"] == .enumCase(EnumCaseValue(typeName: "Genre", rawValue: "novel", title: "Novel")))
        #expect(outcome.snippet == "[Dune]")
    }

    @Test func anOpenedIntentOfTheSameAppRuns() async throws {
        let outcome = try await perform("OpenBook", ["book": .string("Emma")])
        #expect(outcome.dialog == "Opening.")
        #expect(outcome.opened.map(\.intentName) == ["Bookshop.Describe"])
        #expect(outcome.opened.first?.value == .string("Emma by Jane Austen"))
        let notOpened = try await perform("OpenBook", ["book": .string("Emma")], opens: false)
        #expect(notOpened.opened.isEmpty)
    }

    @Test func theHostsErrorIsThePerformsFailure() async throws {
        do {
            _ = try await perform("Fail", [:])
            Issue.record("expected the perform to fail")
        } catch let error as IntentError {
            guard case .performFailed(let intent, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(intent == "Bookshop.Fail")
            #expect(message == "the shelf is locked")
        }
    }

    @Test func cancellingTheTaskCancelsTheHostedPerform() async throws {
        let task = Task { try await perform("Wait", [:]) }
        // Cancel once the host is waiting, however slowly the machine gets there.
        try await eventually(watching: [.notice(host.performReceived)]) { !host.performed.isEmpty }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(host.cancelled == 1)
    }

    @Test func findPushesConditionsSortAndLimitDownToTheHost() async throws {
        let reference = try catalog.entity(named: "BookItem").reference
        let found = try await EntityQueries.find(
            reference,
            conditions: [
                PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Jane Austen")]),
                PropertyCondition(property: "published", comparator: .greaterThan, operands: [.string("1800-01-01")])
            ],
            sortedBy: [PropertySort(property: "pages", order: .descending)], limit: 1)
        #expect(found.map(\.displayText) == ["Emma"])
        let published = try #require(DateText.parse("1800-01-01"))
        #expect(
            host.queries == [
                .properties(
                    conditions: [
                        PropertyCondition(property: "author", comparator: .equalTo, operands: [.string("Jane Austen")]),
                        PropertyCondition(property: "published", comparator: .greaterThan, operands: [.date(published)])
                    ], mode: .and, sort: [PropertySort(property: "pages", order: .descending)], limit: 1)
            ])
        guard case .entity(let emma) = found.first else { return }
        #expect(emma.properties["published"] == .date(try #require(DateText.parse("1815-12-23"))))
    }

    @Test func findChecksWhatTheMetadataDeclares() async throws {
        let reference = try catalog.entity(named: "BookItem").reference
        await #expect(
            throws: EntityQueryError.comparatorNotSupported(
                entity: "BookItem", property: "author", comparator: .lessThan, supported: [.equalTo, .contains])
        ) {
            _ = try await EntityQueries.find(
                reference, conditions: [PropertyCondition(property: "author", comparator: .lessThan, operands: [.string("J")])])
        }
        await #expect(throws: EntityQueryError.notSortable(entity: "BookItem", property: "author", sortable: ["title", "pages", "published"])) {
            _ = try await EntityQueries.find(reference, conditions: [], sortedBy: [PropertySort(property: "author")])
        }
        #expect(host.queries.isEmpty)
    }

    @Test func metadataOfAHostedAppIsWhatWasGiven() throws {
        let metadata = AppMetadata(catalog: catalog)
        #expect(metadata.apps.map(\.name) == ["Bookshop", "Test"])
        #expect(metadata.apps.first == BookshopHost.metadata)
        let decoded = try JSONDecoder().decode(AppMetadata.self, from: Data(try metadata.jsonText().utf8))
        #expect(decoded == metadata)
    }
}

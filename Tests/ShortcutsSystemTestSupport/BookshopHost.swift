import Foundation
import IntentKit
import ShortcutsTestSupport
import Synchronization

/// An app whose code runs "elsewhere": its metadata as an extension would send it, and an
/// in-process ``IntentHost`` that keeps its books in memory, answers property queries with
/// ``ComparatorKind/evaluate(_:_:)``, sorts and limits, and records every request it gets.
///
/// ```swift
/// let host = BookshopHost()
/// let catalog = IntentCatalog(apps: [host.app])
/// try await IntentPerformer(catalog: catalog).perform("Bookshop.Describe", arguments: ["book": "Emma"])
/// ```
public final class BookshopHost: IntentHost {
    /// A perform the host received.
    public struct Performed: Sendable, Equatable {
        public var intent: String
        public var arguments: [String: IntentValue]
    }

    /// Why a hosted intent failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private struct State {
        var books: [EntityValue]
        var queries: [HostedEntityRequest.Query] = []
        var performed: [Performed] = []
        var cancelled = 0
        var prepared = 0
        var preparedBeforeFirstRequest: Int?
    }

    private let state: Mutex<State>

    /// A host with three books.
    public init() {
        state = Mutex(State(books: Self.initialBooks))
    }

    /// The metadata, decoded from its JSON form.
    public static let metadata: AppMetadata.App = {
        do {
            return try JSONDecoder().decode(AppMetadata.App.self, from: Data(metadataJSON.utf8))
        } catch {
            fatalError("the Bookshop metadata does not decode: \(error)")
        }
    }()

    /// The app for a catalog.
    public var app: IntentApp { IntentApp(hosted: Self.metadata, host: self) }

    /// The entity queries received, in order.
    public var queries: [HostedEntityRequest.Query] { state.withLock { $0.queries } }

    /// The performs received, in order.
    public var performed: [Performed] { state.withLock { $0.performed } }

    /// Fired when a perform is received.
    public let performReceived = ChangeNotice()

    /// How many times ``prepare()`` was called.
    public var prepared: Int { state.withLock { $0.prepared } }

    /// How many times ``prepare()`` had been called when the first perform or query came, or
    /// `nil` before any came.
    public var preparedBeforeFirstRequest: Int? { state.withLock { $0.preparedBeforeFirstRequest } }

    public func prepare() {
        state.withLock { $0.prepared += 1 }
    }

    /// How many performs of `Wait` ended because their task was cancelled.
    public var cancelled: Int { state.withLock { $0.cancelled } }

    public func perform(_ request: HostedIntentRequest) async throws -> HostedIntentResult {
        state.withLock { state in
            state.performed.append(Performed(intent: request.intent, arguments: request.arguments))
            state.preparedBeforeFirstRequest = state.preparedBeforeFirstRequest ?? state.prepared
        }
        performReceived.post()
        switch request.intent {
        case "Describe":
            guard case .entity(let book) = request.arguments["book"] else { throw Failure(description: "no book given") }
            let author = book.properties["author"]?.displayText ?? "?"
            return HostedIntentResult(
                value: .string("\(book.title) by \(author)"), dialog: "\(book.title) is on the shelf.",
                details: ["identifier": .string(book.identifier)])
        case "AddBook":
            let title = request.arguments["title"]?.displayText ?? ""
            let pages = request.arguments["pages"] ?? .null
            let genre: IntentValue
            if case .enumCase(let value) = request.arguments["genre"] { genre = .enumCase(value) } else { genre = .null }
            let book = state.withLock { state -> EntityValue in
                let book = EntityValue(
                    typeName: "BookItem", identifier: "b\(state.books.count + 1)", title: title,
                    properties: ["title": .string(title), "author": .string("Anonymous"), "pages": pages, "genre": genre])
                state.books.append(book)
                return book
            }
            return HostedIntentResult(value: Self.json(book), snippet: "[\(title)]")
        case "Echo":
            return HostedIntentResult(value: .dictionary(request.arguments))
        case "AskTitle":
            let answer = try await request.interaction.requestValue(ValueRequest(name: "title", question: "Which title?", type: .string))
            return HostedIntentResult(value: answer)
        case "OpenBook":
            return HostedIntentResult(
                dialog: "Opening.", opensIntent: HostedOpenIntent(intent: "Describe", arguments: ["book": request.arguments["book"] ?? .null]))
        case "Wait":
            // Waits until its task is cancelled: a stream that nothing feeds ends only then.
            let (never, continuation) = AsyncStream<Never>.makeStream()
            for await _ in never {}
            continuation.finish()
            state.withLock { $0.cancelled += 1 }
            throw CancellationError()
        default:
            throw Failure(description: "the shelf is locked")
        }
    }

    public func entities(_ request: HostedEntityRequest) async throws -> [EntityValue] {
        let books = state.withLock { state -> [EntityValue] in
            state.queries.append(request.query)
            state.preparedBeforeFirstRequest = state.preparedBeforeFirstRequest ?? state.prepared
            return state.books
        }
        let found: [EntityValue]
        switch request.query {
        case .identifiers(let identifiers):
            found = books.filter { identifiers.contains($0.identifier) }
        case .matching("unreadable"):
            throw Failure(description: "the catalogue is unreadable")
        case .matching(let text):
            found = books.filter { $0.title.lowercased().contains(text.lowercased()) }
        case .suggested:
            found = books
        case .properties(let conditions, let mode, let sort, let limit):
            var kept = books.filter { book in
                let results = conditions.map { condition in
                    condition.comparator.evaluate(book.properties[condition.property] ?? .null, condition.operands)
                }
                return conditions.isEmpty || (mode == .and ? !results.contains(false) : results.contains(true))
            }
            for criterion in sort.reversed() {
                kept = kept.sorted { left, right in
                    let order = ValueComparison.order(left.properties[criterion.property] ?? .null, right.properties[criterion.property] ?? .null)
                    return criterion.order == .ascending ? order == .orderedAscending : order == .orderedDescending
                }
            }
            found = limit.map { Array(kept.prefix($0)) } ?? kept
        }
        return found.map { book in
            guard case .entity(let encoded) = Self.wire(.entity(book)) else { return book }
            return encoded
        }
    }

    /// A value as it arrives from another process: dates as ISO 8601 text, enum cases as raw values.
    private static func wire(_ value: IntentValue) -> IntentValue {
        switch value {
        case .date(let date): return .string(DateText.format(date))
        case .enumCase(let value): return .string(value.rawValue)
        case .list(let items): return .list(items.map(wire))
        case .entity(var entity):
            entity.properties = entity.properties.mapValues(wire)
            return .entity(entity)
        default: return value
        }
    }

    /// An entity in the value JSON's shape: `{"type","id","title","properties"}`.
    private static func json(_ book: EntityValue) -> IntentValue {
        .dictionary([
            "type": .string(book.typeName), "id": .string(book.identifier), "title": .string(book.title),
            "properties": .dictionary(book.properties.mapValues(wire))
        ])
    }

    private static let initialBooks: [EntityValue] = [
        book("b1", "Emma", "Jane Austen", pages: 474, published: "1815-12-23", genre: "novel"),
        book("b2", "Persuasion", "Jane Austen", pages: 249, published: "1817-12-20", genre: "novel"),
        book("b3", "Leaves of Grass", "Walt Whitman", pages: 95, published: "1855-07-04", genre: "poetry")
    ]

    private static func book(_ id: String, _ title: String, _ author: String, pages: Int, published: String, genre: String) -> EntityValue {
        EntityValue(
            typeName: "BookItem", identifier: id, title: title, subtitle: author,
            properties: [
                "title": .string(title), "author": .string(author), "pages": .int(pages),
                "published": .date(DateText.parse(published) ?? Date(timeIntervalSince1970: 0)),
                "genre": .enumCase(EnumCaseValue(typeName: "Genre", rawValue: genre, title: genre.capitalized))
            ])
    }

    /// The metadata as `shortcuts metadata` prints it.
    public static let metadataJSON = """
        {
          "name": "Bookshop",
          "locales": ["en"],
          "intents": [
            {"name": "Bookshop.AddBook", "title": "Add Book", "description": "Adds a book to the shop.",
             "openAppWhenRun": false, "isDiscoverable": true, "summary": "Add ${title}",
             "parameters": [
               {"name": "title", "title": "Title", "type": "String", "isOptional": false, "isRequired": true},
               {"name": "pages", "title": "Pages", "type": "Int", "isOptional": false, "isRequired": true},
               {"name": "genre", "title": "Genre", "type": "Genre?", "isOptional": true, "isRequired": false}
             ],
             "result": {"type": "ReturnsValue<BookItem> & ShowsSnippetView", "valueType": "BookItem",
                        "providesDialog": false, "showsSnippet": true}},
            {"name": "Bookshop.AskTitle", "title": "Ask Title", "openAppWhenRun": false, "isDiscoverable": true,
             "summary": "Ask for a title", "parameters": [],
             "result": {"type": "ReturnsValue<String>", "valueType": "String", "providesDialog": false, "showsSnippet": false}},
            {"name": "Bookshop.Describe", "title": "Describe Book", "openAppWhenRun": false, "isDiscoverable": true,
             "summary": "Describe ${book}",
             "parameters": [
               {"name": "book", "title": "Book", "type": "BookItem", "isOptional": false, "isRequired": true,
                "requestValueDialog": "Which book?"}
             ],
             "result": {"type": "ReturnsValue<String> & ProvidesDialog", "valueType": "String",
                        "providesDialog": true, "showsSnippet": false}},
            {"name": "Bookshop.Echo", "title": "Echo", "openAppWhenRun": false, "isDiscoverable": false,
             "summary": "Echo ${text}",
             "parameters": [
               {"name": "text", "title": "Text", "type": "String", "isOptional": false, "isRequired": true},
               {"name": "count", "title": "Count", "type": "Int", "isOptional": false, "isRequired": false, "defaultValue": "2"},
               {"name": "when", "title": "When", "type": "Date?", "isOptional": true, "isRequired": false},
               {"name": "tags", "title": "Tags", "type": "[String]?", "isOptional": true, "isRequired": false},
               {"name": "headers", "title": "Headers", "type": "[String: String]?", "isOptional": true, "isRequired": false},
               {"name": "genre", "title": "Genre", "type": "Genre?", "isOptional": true, "isRequired": false}
             ],
             "result": {"type": "ReturnsValue<Any>", "valueType": "Any", "providesDialog": false, "showsSnippet": false}},
            {"name": "Bookshop.Fail", "title": "Fail", "openAppWhenRun": false, "isDiscoverable": true,
             "summary": "Fail", "parameters": [],
             "result": {"type": "IntentResult", "providesDialog": false, "showsSnippet": false}},
            {"name": "Bookshop.OpenBook", "title": "Open Book", "openAppWhenRun": true, "isDiscoverable": true,
             "summary": "Open ${book}",
             "parameters": [
               {"name": "book", "title": "Book", "type": "BookItem", "isOptional": false, "isRequired": true}
             ],
             "result": {"type": "OpensIntent & ProvidesDialog", "opensIntent": "Describe",
                        "providesDialog": true, "showsSnippet": false}},
            {"name": "Bookshop.Wait", "title": "Wait", "openAppWhenRun": false, "isDiscoverable": false,
             "summary": "Wait", "parameters": [],
             "result": {"type": "IntentResult", "providesDialog": false, "showsSnippet": false}}
          ],
          "entities": [
            {"name": "Bookshop.BookItem", "title": "Book",
             "properties": [
               {"name": "title", "title": "Title", "type": "String", "comparators": ["equalTo", "contains", "hasPrefix"], "isSortable": true},
               {"name": "author", "title": "Author", "type": "String", "comparators": ["equalTo", "contains"], "isSortable": false},
               {"name": "pages", "title": "Pages", "type": "Int",
                "comparators": ["equalTo", "lessThan", "greaterThan", "isBetween"], "isSortable": true},
               {"name": "published", "title": "Published", "type": "Date", "comparators": ["lessThan", "greaterThan"], "isSortable": true},
               {"name": "genre", "title": "Genre", "type": "Genre", "comparators": ["equalTo"], "isSortable": false}
             ],
             "sortOptions": ["title", "pages", "published"],
             "supportsPropertyQuery": true, "supportsStringSearch": true, "isEnumerable": false}
          ],
          "enums": [
            {"name": "Bookshop.Genre", "title": "Genre",
             "cases": [{"value": "essay", "title": "Essays"}, {"value": "novel", "title": "Novel"}, {"value": "poetry", "title": "Poetry"}]}
          ],
          "shortcuts": [
            {"intent": "Bookshop.Describe", "phrases": ["Describe ${book} in ${applicationName}"]}
          ]
        }
        """
}

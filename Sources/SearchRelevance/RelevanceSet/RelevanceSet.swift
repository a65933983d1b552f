import Foundation

/// A relevance set: items to index and queries whose results are judged against them.
///
/// The set lives in a folder as two JSON files, `items.json` and `queries.json`
/// (`Benchmarks/Relevance/README.md` documents the format):
///
/// ```swift
/// let set = try RelevanceSet(contentsOf: URL(fileURLWithPath: "Benchmarks/Relevance"))
/// print(set.items.count, set.queries.count)  // 327 71
/// ```
public struct RelevanceSet: Sendable {
    /// The items, in file order.
    public var items: [RelevanceItem]
    /// The judged queries, in file order.
    public var queries: [RelevanceQuery]

    /// Creates a set from items and queries.
    ///
    /// ```swift
    /// let set = RelevanceSet(items: [item], queries: [query])
    /// ```
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - queries: The queries.
    public init(items: [RelevanceItem], queries: [RelevanceQuery]) {
        self.items = items
        self.queries = queries
    }
}

/// One item of a relevance set: a journal entry or a book record.
///
/// ```json
/// {"id": "j-run-river", "kind": "journal", "language": "en", "date": "2025-10-01",
///  "title": "Morning run by the river", "text": "Six kilometres along the river before work…",
///  "keywords": ["running", "river"]}
/// ```
public struct RelevanceItem: Codable, Sendable, Hashable {
    /// The identifier judgements refer to; unique in the set.
    public var id: String
    /// `journal` or `book`.
    public var kind: String
    /// The item's language: `en` or `ja`.
    public var language: String
    /// The entry's or the book's title.
    public var title: String
    /// The book's author; `nil` for journal entries.
    public var author: String?
    /// The entry's day or the book's year of first publication.
    public var date: String?
    /// The entry's text or the book's summary.
    public var text: String
    /// Keywords: the entry's tags or the book's genres.
    public var keywords: [String]

    /// Creates an item.
    ///
    /// ```swift
    /// let item = RelevanceItem(id: "j-1", kind: "journal", language: "en", title: "Run", text: "Six kilometres.")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - kind: `journal` or `book`.
    ///   - language: `en` or `ja`.
    ///   - title: The title.
    ///   - author: The author, for books.
    ///   - date: The day or year.
    ///   - text: The text or summary.
    ///   - keywords: The keywords.
    public init(
        id: String, kind: String, language: String, title: String, author: String? = nil, date: String? = nil, text: String,
        keywords: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.language = language
        self.title = title
        self.author = author
        self.date = date
        self.text = text
        self.keywords = keywords
    }
}

/// A query as a user would type it, with graded judgements of the items.
///
/// Grades: 3 is exactly what was asked for, 2 clearly relevant, 1 partly relevant; an item
/// without a judgement counts as 0.
///
/// ```json
/// {"id": "q-jogging", "text": "jogging", "language": "en", "kinds": ["synonym"],
///  "judgements": {"j-run-river": 3, "j-track-intervals": 2, "b-born-to-run": 1}}
/// ```
public struct RelevanceQuery: Codable, Sendable, Hashable {
    /// A unique identifier.
    public var id: String
    /// The text typed into the search field.
    public var text: String
    /// The query's language: `en` or `ja`.
    public var language: String
    /// What the query tests: `exact`, `synonym`, `paraphrase`, `misspelling`, `morphology`, `crossLanguage`.
    public var kinds: [String]
    /// Grade (1–3) by item identifier.
    public var judgements: [String: Int]

    /// Creates a query.
    ///
    /// ```swift
    /// let query = RelevanceQuery(id: "q-1", text: "jogging", judgements: ["j-1": 3])
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - text: The typed text.
    ///   - language: `en` or `ja`.
    ///   - kinds: What the query tests.
    ///   - judgements: Grades by item identifier.
    public init(id: String, text: String, language: String = "en", kinds: [String] = [], judgements: [String: Int]) {
        self.id = id
        self.text = text
        self.language = language
        self.kinds = kinds
        self.judgements = judgements
    }
}

import ArgumentParser
import Foundation
import IntentKit
import SpotlightKit
import WorkflowKit

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the apps' indexes as typed, or with the query-string language.",
        discussion: """
            Without --index every index is searched: the installed apps' indexes (brought up to date with \
            their data first) and the index files in $SHORTCUTS_HOME/indexes. Typed words match words or \
            their beginnings, ignoring case and diacritics, best first.
            Examples:
              shortcuts search "crawdads owens"
              shortcuts search 'keywords == "natural*"cwdt' --query-string --index tags
              shortcuts search carmel --filter 'contentType == "public.text"' --explain
              shortcuts search jogging --lexical
            In an index with semantic search on (`index semantic on NAME`), typed words also find items \
            by meaning: both rankings are fused, and --explain shows each part.
            A malformed query or filter is shown with a caret under the mistake and exits 1.
            Limits: a typed search uses its first 32 words; a query string or filter has at most 10,000 \
            characters, parentheses 16 deep and strings of 1,000 characters.
            """)

    @Argument(help: ArgumentHelp("What to search for: typed words, or a query-string query with --query-string.", valueName: "query"))
    var query: String

    @Option(name: .long, help: ArgumentHelp("Search only this index.", valueName: "name"), completion: .custom(ShellCompletions.indexes))
    var index: String?

    @Option(name: .long, help: ArgumentHelp("A query-string filter every result must satisfy (repeatable).", valueName: "query"))
    var filter: [String] = []

    @Flag(name: .long, help: "Read QUERY in the query-string language (keywords == \"natural*\"cwdt) instead of as typed words.")
    var queryString = false

    @Option(name: .long, help: "The most results.")
    var limit: Int = 20

    @Flag(name: .long, help: "Show the parts of each result's score.")
    var explain = false

    @Flag(name: .long, help: "Match words only, also in indexes with semantic search on.")
    var lexical = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        if queryString { try QueryDiagnostic.check(query, label: "query") }
        for filter in filter { try QueryDiagnostic.check(filter, label: "--filter") }
        let catalog = SearchIndexCatalog(intents: Installation.shared.catalog)
        var request = SearchRequest(
            text: query, language: queryString ? .queryString : .userQuery,
            indexNames: index.map { [$0] }, filterQueries: filter, limit: limit,
            maxSuggestionCount: queryString ? 0 : 3)
        request.retrieval = lexical ? .lexical : .hybrid
        let response: SearchResponse
        do {
            response = try await catalog.search(request)
        } catch let error as SpotlightError {
            if case .unknownIndex = error, let position = Installation.shared.arguments.lastIndex(where: { $0 == index }) {
                throw CommandLineError(error, argument: position)
            }
            throw CommandLineError(error)
        } catch {
            throw CommandLineError(error)
        }
        if response.leftOutWordCount > 0 && !json {
            let typed = QueryLimits.maxTypedWords + response.leftOutWordCount
            CommandOutput.current.writeError(
                Data(
                    ("note: only the first \(QueryLimits.maxTypedWords) of the \(typed) words "
                        + "were searched; a typed search uses at most \(QueryLimits.maxTypedWords) words\n").utf8))
        }
        print(
            json
                ? SearchOutput.json(response, request: request, explain: explain)
                : SearchOutput.text(response, explain: explain))
        if response.hits.isEmpty, !json, !queryString, !lexical, SemanticSearchSetup.installedModelCount() == 0 {
            CommandOutput.current.writeError(
                Data(
                    ("note: words are matched as typed; to also find items by meaning, "
                        + "\(SemanticSearchSetup.installHelp), then `\(Installation.shared.commandName) index semantic on NAME`\n").utf8))
        }
    }
}

/// Checks a query before searching, and shows a mistake with a caret under its column.
enum QueryDiagnostic {
    static func check(_ query: String, label: String) throws {
        do {
            _ = try QueryExpression.parse(query)
        } catch SpotlightError.invalidQuery(_, let column, let message) {
            throw CommandLineError(rendered: render(query, label: label, column: column, message: message))
        } catch {
            throw CommandLineError(error)
        }
    }

    /// ```
    /// error: invalid query at column 13: expected a value after '=='
    ///   keywords ==
    ///               ^
    /// ```
    static func render(_ query: String, label: String, column: Int, message: String) -> String {
        let prefix = label == "query" ? "invalid query" : "invalid \(label) query"
        let (line, caretColumn) = SpotlightError.excerpt(of: query, around: column)
        let caret = CaretLine.draw(under: line, columns: caretColumn - 1..<caretColumn)
        return "error: \(prefix) at column \(column): \(message)\n  \(line)\n  \(caret)"
    }
}

/// The text and JSON forms of search results.
enum SearchOutput {
    static func text(_ response: SearchResponse, explain: Bool) -> String {
        var lines: [String] = []
        if response.hits.isEmpty { lines.append("No results.") }
        let rows = response.hits.enumerated().map { offset, hit -> [String] in
            ["\(offset + 1).", hit.shownTitle, hit.shownDetail, hit.shownSource]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (row, hit) in zip(rows, response.hits) {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            lines.append(cells.joined(separator: "  "))
            if explain, let explanation = hit.explanation {
                lines.append(String(repeating: " ", count: widths[0] + 2) + explanation.description)
            }
        }
        if !response.suggestions.isEmpty {
            lines.append("Did you mean: " + response.suggestions.map(\.text).joined(separator: ", ") + "?")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ response: SearchResponse, request: SearchRequest, explain: Bool) -> String {
        let results = response.hits.enumerated().map { offset, hit -> IntentValue in
            let attributes = hit.item.attributeSet
            var entry: [String: IntentValue] = [
                "rank": .int(offset + 1),
                "index": .string(hit.indexName),
                "identifier": .string(hit.item.uniqueIdentifier)
            ]
            func add(_ key: String, _ value: String?) { if let value { entry[key] = .string(value) } }
            add("domain", hit.item.domainIdentifier)
            add("title", attributes.title)
            add("displayName", attributes.displayName)
            add("contentDescription", attributes.contentDescription)
            add("contentType", attributes.contentType)
            add("contentURL", attributes.contentURL?.absoluteString)
            add("entityType", hit.entityTypeName)
            if let keywords = attributes.keywords { entry["keywords"] = .list(keywords.map(IntentValue.string)) }
            if let score = hit.score { entry["score"] = .double(rounded(score)) }
            if let entity = hit.entity { entry["entity"] = entity }
            if explain, let explanation = hit.explanation {
                entry["explanation"] = .dictionary(explanation.jsonObject(rounded: rounded))
            }
            return .dictionary(entry)
        }
        let suggestions = response.suggestions.map { suggestion -> IntentValue in
            .dictionary([
                "text": .string(suggestion.text),
                "kind": .string(suggestion.kind == .completion ? "completion" : "correction"),
                "matchCount": .int(suggestion.matchCount)
            ])
        }
        return IntentValue.dictionary([
            "query": .string(request.text),
            "language": .string(request.language == .queryString ? "queryString" : "userQuery"),
            "results": .list(results),
            "suggestions": .list(suggestions),
            "leftOutWordCount": .int(response.leftOutWordCount)
        ]).jsonText
    }

    /// Six decimals, so the output is the same on every run and machine.
    private static func rounded(_ value: Double) -> Double {
        (value * 1_000_000).rounded() / 1_000_000
    }
}

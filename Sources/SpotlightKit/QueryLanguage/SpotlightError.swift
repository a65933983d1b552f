import Foundation
import IntentKit

/// Every error SpotlightKit throws, each with the context needed to act on it.
///
/// ```swift
/// do {
///     _ = try QueryExpression.parse(#"title == "unterminated"#)
/// } catch let error as SpotlightError {
///     print(error) // Invalid query at column 10: unterminated string ...
/// }
/// ```
public enum SpotlightError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A query string does not follow the query language; `column` is 1-based.
    case invalidQuery(query: String, column: Int, message: String)
    /// A query was cancelled with `cancel()`.
    case cancelled(query: String)
    /// `endBatch` found another client state than the expected one; nothing was written.
    case clientStateMismatch(index: String, expected: Data?, actual: Data?)
    /// `beginBatch()` was called while a batch was open.
    case batchAlreadyOpen(index: String)
    /// `endBatch` was called with no open batch.
    case noOpenBatch(index: String)
    /// The store configuration names something the store does not have.
    case invalidStoreConfiguration(store: String, reason: String)
    /// An operation needs indexing to be started first, or it was stopped.
    case indexingNotRunning(store: String)
    /// No installed app keeps an index of this name and no index file has it; `known` lists the names there are.
    case unknownIndex(name: String, known: [String])
    /// The index is not kept by an installed app, so nothing can rebuild or reindex it.
    case indexWithoutMaintainer(name: String)
    /// The database of an index (or of the app data it is built from) failed; `reason` says why in words.
    case indexDatabaseFailure(name: String, path: String, reason: String)
    /// Semantic indexing was asked of an index that has semantic search off or no embedder attached.
    case semanticSearchUnavailable(index: String, reason: String)

    public var description: String {
        switch self {
        case .invalidQuery(let query, let column, let message):
            let (line, caret) = Self.excerpt(of: query, around: column)
            return "Invalid query at column \(column): \(message)\n  \(line)\n  \(String(repeating: " ", count: caret - 1))^"
        case .cancelled(let query):
            return "The query was cancelled: \(query)"
        case .clientStateMismatch(let index, let expected, let actual):
            return
                "Index '\(index)': the stored client state \(Self.describe(actual)) differs from the expected \(Self.describe(expected)); the batch was not written"
        case .batchAlreadyOpen(let index):
            return "Index '\(index)': beginBatch() was called while a batch is already open"
        case .noOpenBatch(let index):
            return "Index '\(index)': endBatch was called without beginBatch()"
        case .invalidStoreConfiguration(let store, let reason):
            return "Store \(store): \(reason)"
        case .indexingNotRunning(let store):
            return "Store \(store): indexing is not running; call startIndexing() first"
        case .unknownIndex(let name, let known):
            var message = "no search index named '\(name)'"
            if let nearest = NameSuggestion.nearest(to: name, among: known) {
                message += "\nhelp: did you mean '\(nearest)'?"
            } else {
                message += known.isEmpty ? "\nhelp: there are no search indexes yet" : "\nhelp: the indexes are: " + known.joined(separator: ", ")
            }
            return message
        case .indexWithoutMaintainer(let name):
            return "no installed app keeps the index '\(name)', so it cannot be rebuilt from the app's data"
        case .indexDatabaseFailure(let name, let path, let reason):
            return "the index '\(name)' (\(path)) could not be used: \(reason)"
        case .semanticSearchUnavailable(let index, let reason):
            return "Index '\(index)': semantic indexing is not possible: \(reason)"
        }
    }

    /// The part of a long query around a column, with `…` where text is left out, and the
    /// column of the caret in that part; a query of at most `width` characters is shown whole.
    ///
    /// ```swift
    /// SpotlightError.excerpt(of: "title == 1", around: 10)   // ("title == 1", 10)
    /// ```
    package static func excerpt(of query: String, around column: Int, width: Int = 100) -> (line: String, caretColumn: Int) {
        guard query.count > width else { return (query, max(1, column)) }
        let characters = Array(query.prefix(max(column, 1) + width))
        let start = max(0, min(column - 1 - width / 2, characters.count - width))
        let end = min(characters.count, start + width)
        var line = String(characters[start..<end])
        var caret = column - start
        if start > 0 {
            line = "…" + line
            caret += 1
        }
        if end < query.count { line += "…" }
        return (line, max(1, caret))
    }

    private static func describe(_ data: Data?) -> String {
        guard let data else { return "(none)" }
        if let text = String(data: data, encoding: .utf8), text.allSatisfy({ !$0.isNewline }) {
            return "\"\(text)\""
        }
        return "<\(data.count) bytes>"
    }
}

import Foundation
import GRDB
import Testing

@testable import SpotlightKit

@Suite("Search queries")
struct SearchQueryTests {
    @Test func fetchAttributesLimitWhatIsReturned() async throws {
        let index = try makeIndex()
        var item = textItem("a", title: "Title", text: "Body", keywords: ["k"], domain: "d")
        item.attributeSet[customKey: "rating"] = .number(3)
        item.attributeSet[customKey: "hidden"] = .string("x")
        try await index.indexSearchableItems([item])
        let query = SearchQuery(queryString: #"title == "*""#, attributes: ["kMDItemTitle", "rating"], index: index)
        var found: [SearchableItem] = []
        for try await item in query.results { found.append(item) }
        let result = try #require(found.first)
        #expect(result.uniqueIdentifier == "a")
        #expect(result.domainIdentifier == "d")
        #expect(result.attributeSet.title == "Title")
        #expect(result.attributeSet.textContent == nil)
        #expect(result.attributeSet.keywords == nil)
        #expect(result.attributeSet[customKey: "rating"] == .number(3))
        #expect(result.attributeSet[customKey: "hidden"] == nil)
        #expect(query.foundItemCount == 1)
    }

    @Test func resultsArriveAcrossPages() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems((0..<1000).map { textItem("i\($0)", title: $0 % 2 == 0 ? "even" : "odd") })
        let query = SearchQuery(queryString: #"title == "even""#, attributes: ["title"], index: index, pageSize: 64)
        var count = 0
        for try await item in query.results {
            #expect(item.attributeSet.title == "even")
            count += 1
        }
        #expect(count == 500)
    }

    @Test func malformedQueryEndsTheStreamWithTheColumn() async throws {
        let index = try makeIndex()
        let query = SearchQuery(queryString: #"title == "x" &&"#, attributes: [], index: index)
        do {
            for try await _ in query.results {}
            Issue.record("expected an error")
        } catch let SpotlightError.invalidQuery(_, column, _) {
            #expect(column == 16)
        }
    }

    @Test func cancelStopsTheQuery() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems((0..<2000).map { textItem("i\($0)", title: "item") })
        let query = SearchQuery(queryString: #"title == "item""#, attributes: [], index: index, pageSize: 10)
        var received = 0
        do {
            for try await _ in query.results {
                received += 1
                if received == 15 { query.cancel() }
            }
            Issue.record("expected cancellation")
        } catch let error as SpotlightError {
            #expect(error == .cancelled(query: #"title == "item""#))
        }
        #expect(received < 2000)
        #expect(query.isCancelled)
    }

    @Test func cancelBeforeIterationEndsAtOnce() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([textItem("a", title: "item")])
        let query = SearchQuery(queryString: #"title == "item""#, attributes: [], index: index)
        query.cancel()
        await #expect(throws: SpotlightError.cancelled(query: #"title == "item""#)) {
            for try await _ in query.results {}
        }
    }

    @Test func taskCancellationStopsTheQuery() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems((0..<5000).map { textItem("i\($0)", title: "item") })
        let query = SearchQuery(queryString: #"title == "item"cdw"#, attributes: [], index: index, pageSize: 5)
        let counter = Counter()
        let task = Task {
            for try await _ in query.results {
                await counter.increment()
                // Wall time: a slow consumer, so that the query is cancelled midway.
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        // Wall time: some results arrive before the cancel.
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        _ = await task.result
        let seen = await counter.value
        #expect(seen < 5000)
        // Wall time: nothing arrives after the cancel, however long one waits.
        try await Task.sleep(for: .milliseconds(50))
        #expect(await counter.value == seen, "nothing arrives after cancellation")
    }
}

actor Counter {
    var value = 0
    func increment() { value += 1 }
}

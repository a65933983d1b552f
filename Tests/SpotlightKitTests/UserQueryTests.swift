import Foundation
import GRDB
import IntentKit
import Testing

@testable import SpotlightKit

@Suite("User queries")
struct UserQueryTests {
    @Test func wordsMatchAsPrefixesIgnoringCaseAndDiacritics() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("crawdads", title: "Where the Crawdads Sing"),
            textItem("cafe", title: "Le Café de Flore"),
            textItem("other", title: "Something else", text: "crawling")
        ])
        #expect(try await userSearch("crawdad", in: index).items.map(\.id) == ["crawdads"])
        #expect(try await userSearch("CRAWD", in: index).items.map(\.id) == ["crawdads"])
        #expect(try await userSearch("cafe", in: index).items.map(\.id) == ["cafe"])
        #expect(try await userSearch("café flo", in: index).items.map(\.id) == ["cafe"])
        #expect(try await userSearch("craw", in: index).items.map(\.id).sorted() == ["crawdads", "other"])
    }

    @Test func everyWordMustMatch() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("a", title: "Windsurfing in Carmel"),
            textItem("b", title: "Windsurfing in Maui"),
            textItem("c", title: "Carmel by the sea", keywords: ["windsurf"])
        ])
        #expect(try await userSearch("windsurfing carmel", in: index).items.map(\.id) == ["a"])
        #expect(try await userSearch("winds carm", in: index).items.map(\.id).sorted() == ["a", "c"])
        #expect(try await userSearch("\"quoted\" windsurf", in: index).items.isEmpty)
    }

    @Test func punctuationOnlyInputBehavesLikeAnEmptyQuery() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([textItem("a", title: "One", hint: 10), textItem("b", title: "Two", hint: 90)])
        #expect(try await userSearch("  -- ", in: index).items.map(\.id) == ["b", "a"])
        #expect(try await userSearch("", in: index).items.map(\.id) == ["b", "a"])
    }

    @Test func titleOutranksKeywordsWhichOutrankTextContent() async throws {
        let index = try makeIndex()
        let filler = String(repeating: "lorem ipsum dolor ", count: 5)
        try await index.indexSearchableItems([
            textItem("text", title: "Notes", text: "\(filler) kayak \(filler)"),
            textItem("keywords", title: "Trip", text: filler, keywords: ["kayak"]),
            textItem("title", title: "Kayak", text: filler)
        ])
        let results = try await userSearch("kayak", in: index).items
        #expect(results.map(\.id) == ["title", "keywords", "text"])
        #expect(results[0].explanation.relevance == 1)
        #expect(results[0].explanation.bm25 > results[1].explanation.bm25)
        #expect(results[1].explanation.bm25 > results[2].explanation.bm25)
    }

    @Test func freshnessHintAndEngagementAdjustTheRank() async throws {
        let index = try makeIndex()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let environment = QueryEnvironment(now: now)
        try await index.indexSearchableItems([
            textItem("old", title: "Report"),
            textItem("fresh", title: "Report", lastUsed: now.addingTimeInterval(-86_400))
        ])
        var results = try await userSearch("report", in: index, environment: environment).items
        #expect(results.map(\.id) == ["fresh", "old"])
        #expect(results[0].explanation.freshness > 0.97)
        #expect(results[1].explanation.freshness == 0)

        try await index.indexSearchableItems([textItem("hinted", title: "Report", hint: 100)])
        results = try await userSearch("report", in: index, environment: environment).items
        #expect(results.first?.id == "fresh", "0.15×freshness of a day-old item beats 0.10×hint")
        #expect(results.map(\.id).firstIndex(of: "hinted")! < results.map(\.id).firstIndex(of: "old")!)

        let query = UserQuery(userQueryString: "report", index: index, environment: environment)
        let old = try #require(results.first { $0.id == "old" })
        try await query.userEngaged(old, visibleItems: results, interaction: .select)
        try await query.userEngaged(old, visibleItems: results, interaction: .select)
        try await query.userEngaged(old, visibleItems: results, interaction: .select)
        results = try await userSearch("report", in: index, environment: environment).items
        #expect(results.first?.id == "old", "three selections outweigh freshness")
        #expect(results.first!.explanation.engagement > 0.7)
        let hinted = try #require(results.first { $0.id == "hinted" })
        #expect(hinted.explanation.engagement == 0)
        let stored = try await index.database.read { db in
            try EngagementRecord.fetchAll(db).sorted { $0.uniqueIdentifier < $1.uniqueIdentifier }
        }
        #expect(stored.map(\.uniqueIdentifier) == ["fresh", "hinted", "old"])
        #expect(stored.first { $0.uniqueIdentifier == "old" }?.selectCount == 3)
        #expect(stored.first { $0.uniqueIdentifier == "fresh" }?.impressionCount == 3)
    }

    @Test func explanationAddsUp() async throws {
        let index = try makeIndex()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try await index.indexSearchableItems([textItem("a", title: "Alpine lake", lastUsed: now.addingTimeInterval(-30 * 86_400), hint: 40)])
        let result = try #require(try await userSearch("alpine", in: index, environment: QueryEnvironment(now: now)).items.first)
        let e = result.explanation
        #expect(abs(e.freshness - 0.5) < 1e-9)
        #expect(e.hint == 0.4)
        #expect(abs(e.total - (0.50 * e.relevance + 0.15 * e.freshness + 0.25 * e.engagement + 0.10 * e.hint)) < 1e-12)
        #expect(result.score == e.total)
        #expect(e.description.hasPrefix("score "))
        #expect(e.description.contains("bm25"))
    }

    @Test func resultsArriveInScoreOrderWhateverTheSignals() async throws {
        let index = try makeIndex()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var items: [SearchableItem] = []
        for number in 0..<60 {
            let title = number % 3 == 0 ? "Granite dome" : "Dome"
            let text = String(repeating: "granite ", count: number % 4 + 1)
            let lastUsed: Date? = number % 2 == 0 ? now.addingTimeInterval(-Double(number) * 86_400) : nil
            let hint: Int? = number % 5 == 0 ? nil : number
            items.append(textItem("i\(number)", title: title, text: text, lastUsed: lastUsed, hint: hint))
        }
        try await index.indexSearchableItems(items)
        let results = try await userSearch("granite", in: index, environment: QueryEnvironment(now: now)).items
        #expect(results.count == 60)
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.score >= $1.score - 1e-12 })
    }

    @Test func contextFiltersLimitsAndTopHits() async throws {
        let index = try makeIndex()
        var photos: [SearchableItem] = []
        for number in 0..<5 {
            var set = SearchableItemAttributeSet(contentType: .jpeg)
            set.title = "Beach \(number)"
            set.rankingHint = number * 10
            photos.append(SearchableItem(uniqueIdentifier: "photo\(number)", attributeSet: set))
        }
        try await index.indexSearchableItems(photos + [textItem("note", title: "Beach notes", hint: 100)])

        var context = UserQueryContext()
        context.fetchAttributes = ["title"]
        context.filterQueries = [#"contentTypeTree == "public.image""#, "rankingHint >= 10"]
        context.enableRankedResults = true
        context.maxRankedResultCount = 2
        context.maxResultCount = 3
        let results = try await userSearch("beach", context: context, in: index).items
        #expect(results.map(\.id) == ["photo4", "photo3", "photo2"])
        #expect(results.map(\.isTopHit) == [true, true, false])
        #expect(results.map(\.rank) == [1, 2, 3])
        #expect(results[0].item.attributeSet.title == "Beach 4")
        #expect(results[0].item.attributeSet.rankingHint == nil, "only fetch attributes are filled in")
        let sorted = results.shuffled().sorted { $0.compare(byRank: $1) == .orderedAscending }
        #expect(sorted.map(\.id) == results.map(\.id))
    }

    @Test func malformedFilterQueryFailsWithItsColumn() async throws {
        let index = try makeIndex()
        let context = UserQueryContext(filterQueries: [#"contentTypeTree = "public.image"#])
        do {
            _ = try await userSearch("x", context: context, in: index)
            Issue.record("expected an error")
        } catch let SpotlightError.invalidQuery(_, column, message) {
            #expect(column == 19)
            #expect(message.contains("Unterminated"))
        }
    }

    @Test func suggestionsCompleteTheLastWord() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "Windsurfing in Carmel"),
            textItem("2", title: "Carmel valley"),
            textItem("3", title: "Carmelite monastery"),
            textItem("4", title: "Carmel river")
        ])
        let context = UserQueryContext(maxSuggestionCount: 2)
        let (_, suggestions) = try await userSearch("windsurfing carm", context: context, in: index)
        #expect(suggestions.map(\.text) == ["windsurfing carmel", "windsurfing carmelite"])
        #expect(suggestions.allSatisfy { $0.kind == .completion })
        #expect(suggestions.first?.matchCount == 3)
        let none = try await userSearch("carm", in: index).suggestions
        #expect(none.isEmpty, "suggestions are off by default")
    }

    @Test func suggestionsCorrectNearMisses() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("1", title: "Crawdads and crayfish"),
            textItem("2", title: "Windsurfing")
        ])
        let context = UserQueryContext(maxSuggestionCount: 3)
        let typo = try await userSearch("crwadads", context: context, in: index)
        #expect(typo.items.isEmpty)
        #expect(typo.suggestions.first?.text == "crawdads")
        #expect(typo.suggestions.first?.kind == .correction)
        let prefixTypo = try await userSearch("wnidsurf", context: context, in: index)
        #expect(prefixTypo.suggestions.first?.text == "windsurfing")
        let earlierWord = try await userSearch("crawdda windsu", context: context, in: index)
        #expect(earlierWord.suggestions.first?.text == "crawdads windsurfing")
        #expect(earlierWord.suggestions.first?.kind == .correction)
    }

    @Test func editDistance() {
        #expect(NameSuggestion.editDistance(Array("crawdads"), Array("crwadads")) == 1)
        #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(NameSuggestion.editDistance(Array("wnidsurf"), Array("windsurfing"), prefixOfSecond: true) == 1)
        #expect(NameSuggestion.editDistance(Array("abcdef"), Array("uvwxyz"), limit: 2) == 3)
    }

    @Test func cancellingAUserQuery() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems((0..<300).map { textItem("i\($0)", title: "common word") })
        let query = UserQuery(userQueryString: "common", index: index)
        var received = 0
        do {
            for try await _ in query.responses {
                received += 1
                if received == 3 { query.cancel() }
            }
            Issue.record("expected cancellation")
        } catch let error as SpotlightError {
            #expect(error == .cancelled(query: "common"))
        }
        #expect(received == 3)
    }
}

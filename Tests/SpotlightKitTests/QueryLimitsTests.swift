import Foundation
import GRDB
import SeededRandom
import ShortcutsTestSupport
import Testing

@testable import SpotlightKit

/// The column and message of the query error `body` throws; `nil` when it throws none.
private func queryError(_ body: () throws -> Void) -> (column: Int, message: String)? {
    do {
        try body()
        return nil
    } catch SpotlightError.invalidQuery(_, let column, let message) {
        return (column, message)
    } catch {
        Issue.record("not a query error: \(error)")
        return nil
    }
}

/// An index with three items for the limit tests.
private func limitsIndex() async throws -> SearchableIndex {
    let index = try makeIndex()
    try await index.indexSearchableItems([
        textItem("emma", title: "Emma", keywords: ["austen"], hint: 5),
        textItem("persuasion", title: "Persuasion", keywords: ["austen"], hint: 7),
        textItem("crawdads", title: "Where the Crawdads Sing", keywords: ["owens"], hint: 9)
    ])
    return index
}

@Suite("Query language: limits")
struct QueryLimitsTests {
    @Test(arguments: [
        ("$time.today(9223372036854775807)", 13),
        ("lastUsedDate > $time.this_year(1e19)", 32),
        ("lastUsedDate < $time.yesterday(-9223372036854775808)", 32),
        ("lastUsedDate < $time.this_month(-9223372036854775809)", 33),
        ("lastUsedDate < $time.this_week(18446744073709551616)", 32),
        ("lastUsedDate < $time.now(1e300)", 26)
    ])
    func timeOffsetsBeyondTenThousandYearsAreLocatedErrors(query: String, column: Int) {
        let error = queryError { _ = try QueryExpression.parse(query) }
        #expect(error?.column == column, "\(query)")
        #expect(error?.message.contains("must be between") == true)
    }

    @Test func timeOffsetsAtTheLimitsRun() async throws {
        let index = try await limitsIndex()
        for query in [
            "lastUsedDate < $time.today(3652425)", "lastUsedDate > $time.this_year(-10000)",
            "lastUsedDate < $time.now(315576000000)", "lastUsedDate > $time.this_week(-521775)"
        ] {
            _ = try await search(query, in: index)
        }
    }

    @Test func hugeNumbersAreLocatedErrors() {
        #expect(queryError { _ = try QueryExpression.parse("rankingHint > 1e400") }?.column == 15)
        #expect(queryError { _ = try QueryExpression.parse("rankingHint > 0x1FFFFFFFFFFFFFFFFFFF") }?.column == 15)
    }

    @Test func tooLongQueriesAreRefusedAtTheFirstCharacterOverTheLimit() {
        for query in [
            String(repeating: "(", count: 30_000), String(repeating: "!", count: 20_000),
            "title == \"" + String(repeating: "a", count: 50_000) + "\""
        ] {
            let error = queryError { _ = try QueryExpression.parse(query) }
            #expect(error?.column == QueryLimits.maxQueryLength + 1)
            #expect(error?.message.contains("the limit is 10000 characters") == true)
        }
    }

    @Test func parenthesesNestAtMostSixteenDeep() throws {
        let deep = String(repeating: "(", count: 4_000) + "title == \"x\"" + String(repeating: ")", count: 4_000)
        let error = queryError { _ = try QueryExpression.parse(deep) }
        #expect(error?.column == QueryLimits.maxNestingDepth + 1)
        let deepest = String(repeating: "(", count: 16) + "title == \"Emma\"" + String(repeating: ")", count: 16)
        #expect(try QueryExpression.parse(deepest).description == #"title == "Emma""#)
    }

    @Test func repeatedNegationsCancelOutAndRun() async throws {
        let index = try await limitsIndex()
        #expect(try await search(String(repeating: "!", count: 40) + #"title == "Emma""#, in: index) == ["emma"])
        #expect(try await search(String(repeating: "!", count: 41) + #"title == "Emma""#, in: index) == ["crawdads", "persuasion"])
        #expect(try await search(String(repeating: "!", count: 9_000) + #"title == "Emma""#, in: index) == ["emma"])
        #expect(try await search(#"!(!(!(title == "Emma")))"#, in: index) == ["crawdads", "persuasion"])
        #expect(try await search(#"!(title == "Emma" || rankingHint > 8)"#, in: index) == ["persuasion"])
    }

    @Test func longChainsOfAndAndOrRun() async throws {
        let index = try await limitsIndex()
        let hundred = Array(repeating: #"keywords == "austen""#, count: 100).joined(separator: " && ")
        #expect(try await search(hundred, in: index) == ["emma", "persuasion"])
        let many = Array(repeating: "r=1", count: 1_990).joined(separator: "||") + #"||title=="Emma""#
        #expect(try await search(many, in: index) == ["emma"])
        let filtered = try await userSearch("austen", context: UserQueryContext(filterQueries: [hundred, many]), in: index)
        #expect(filtered.items.map(\.item.uniqueIdentifier) == ["emma"])
    }

    /// `!(a || !(b && !(c || …)))`, `levels` deep, each level a chain of `width` comparisons.
    static func alternating(levels: Int, width: Int) -> String {
        var query = #"title == "Emma""#
        for level in 0..<levels {
            let op = level.isMultiple(of: 2) ? " || " : " && "
            query = "!(" + Array(repeating: #"!* == "x*""#, count: width).joined(separator: op) + op + query + ")"
        }
        return query
    }

    @Test func alternationUpToTheLimitRunsAndBeyondIsALocatedError() async throws {
        let index = try await limitsIndex()
        // 12 levels of 17-term chains: 24 nested SQL groups, the most the compiler allows.
        _ = try await search(Self.alternating(levels: 12, width: 17), in: index)
        _ = try await search(Self.alternating(levels: 16, width: 1), in: index)
        let tooDeep = Self.alternating(levels: 13, width: 17)
        let error = queryError { _ = try QueryExpression.parse(tooDeep) }
        #expect(error?.message.contains("the limit is 24") == true)
        // The caret points at a comparison of the innermost group.
        let innermost = tooDeep.distance(from: tooDeep.startIndex, to: tooDeep.range(of: "!(", options: .backwards)!.lowerBound)
        #expect(error.map { $0.column > innermost && tooDeep.dropFirst($0.column - 1).hasPrefix(#"* == "x*""#) } == true)
    }

    @Test func patternsAreAtMostAThousandCharacters() async throws {
        let index = try await limitsIndex()
        let long = "title == \"" + String(repeating: "a", count: 1_001) + "\""
        #expect(queryError { _ = try QueryExpression.parse(long) }?.column == 10)
        let word = "title == " + String(repeating: "a", count: 1_001)
        #expect(queryError { _ = try QueryExpression.parse(word) }?.column == 10)
        let longest = "title == \"" + String(repeating: "é", count: 1_000) + "\"cd || " + "* == \"" + String(repeating: "%", count: 1_000) + "\""
        #expect(try await search(longest, in: index).isEmpty)
    }

    @Test func longErrorsShowTheTextAroundTheColumn() {
        let query = String(repeating: "(", count: 9_000)
        let text = SpotlightError.invalidQuery(query: query, column: 17, message: "too deep").description
        #expect(text.count < 300)
        let (line, caret) = SpotlightError.excerpt(of: "title == 1", around: 10)
        #expect(line == "title == 1" && caret == 10)
    }
}

@Suite("Query language: fuzz", .onThreadOfItsOwn)
struct QueryFuzzTests {
    static let fragments = [
        "title", "keywords", "rankingHint", "lastUsedDate", "*", "InRange", "custom.key", "==", "!=", "<", ">=",
        "==[cd]", "&&", "||", "!", "(", ")", ",", "\"emma*\"cd", "'x'", "\"", "\\", "5", "-0x10", "1e19", "1e400",
        "9223372036854775807", "-9223372036854775808", "nan", "inf", "-inf", "NaN", "$time.today(9223372036854775807)",
        "$time.now(-1e308)", "$time.this_year(1e19)", "$time.iso(2024-02-30)", "$time.today(nan)", "$time.yesterday(-3)",
        "$time.", "$", "é", "\u{0301}", "0x", ".5", "-", "[", "]"
    ]

    /// A query of random fragments, with runs of one fragment to reach deep nesting.
    static func randomQuery(_ generator: inout SeededRandomNumberGenerator, pieces: Int) -> String {
        var parts: [String] = []
        while parts.count < pieces {
            let fragment = fragments.randomElement(using: &generator)!
            let run = Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 1...200, using: &generator) : 1
            parts += Array(repeating: fragment, count: run)
        }
        return parts.joined(separator: Bool.random(using: &generator) ? " " : "")
    }

    // 1,500 searches: seconds alone, longer beside the other suites; the limit catches a hang.
    @Test(.timeLimit(.minutes(3)))
    func randomQueriesGiveAResultOrALocatedError() async throws {
        let index = try await limitsIndex()
        var generator = SeededRandomNumberGenerator(seed: 10)
        var parsed = 0
        for round in 0..<1_500 {
            let query = Self.randomQuery(&generator, pieces: [3, 8, 40, 400][round % 4])
            do {
                _ = try QueryExpression.parse(query)
                parsed += 1
                _ = try await search(query, in: index)
            } catch SpotlightError.invalidQuery(_, let column, let message) {
                #expect((1...(query.count + 1)).contains(column), "\(query): column \(column)")
                #expect(!message.isEmpty)
            }
        }
        // Valid comparisons, so that the runs reach the database too.
        for _ in 0..<300 {
            let terms = (0..<Int.random(in: 1...60, using: &generator)).map { _ in
                [
                    #"title == "e*"c"#, "rankingHint > 5", "lastUsedDate < $time.today(-3)", #"keywords == "austen""#,
                    "InRange(rankingHint, 1, 8)", #"* != "x""#
                ].randomElement(using: &generator)!
            }
            var query = ""
            for term in terms {
                let negations = String(repeating: "!", count: Int.random(in: 0...3, using: &generator))
                query += query.isEmpty ? negations + term : [" && ", " || "].randomElement(using: &generator)! + negations + term
                if Bool.random(using: &generator) { query = "(" + query + ")" }
            }
            do {
                _ = try await search(query, in: index)
                parsed += 1
            } catch SpotlightError.invalidQuery(_, let column, _) {
                #expect((1...(query.count + 1)).contains(column))
            }
        }
        #expect(parsed > 100)
    }

    /// The seconds `body` takes, the best of three runs.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            try await body()
            let elapsed = (ContinuousClock.now - start).components
            best = min(best, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
        return best
    }

    @Test(.timeLimit(.minutes(1)))
    func parsingTakesTimeLinearInLength() async throws {
        let index = try await limitsIndex()
        func chain(_ count: Int) -> String {
            Array(repeating: #"(!title=="e*"c||r=1)"#, count: count).joined(separator: "&&")
        }
        // 100 and 400 terms (2,100 and 8,400 characters), parsed, compiled and run.
        let small = try await Self.seconds { _ = try await search(chain(100), in: index) }
        let large = try await Self.seconds { _ = try await search(chain(400), in: index) }
        #expect(large < small * 4 * 4 + 0.05, "100 terms: \(small) s, 400 terms: \(large) s")
        let bangs = try await Self.seconds { _ = try? QueryExpression.parse(String(repeating: "!(", count: 2_000)) }
        let moreBangs = try await Self.seconds { _ = try? QueryExpression.parse(String(repeating: "!(", count: 8_000)) }
        #expect(moreBangs < bangs * 4 * 4 + 0.05)
    }
}

@Suite("Typed searches: the word limit")
struct TypedWordLimitTests {
    static func words(_ count: Int) -> String {
        let vocabulary = ["emma", "austen", "crawdads", "owens", "sing", "persuasion", "jane", "where"]
        return (0..<count).map { vocabulary[$0 % vocabulary.count] }.joined(separator: " ")
    }

    @Test func onlyTheFirstWordsAreSearched() async throws {
        let (searched, leftOut) = UserQuery.typedWords(Self.words(32_000))
        #expect(searched.count == QueryLimits.maxTypedWords)
        #expect(leftOut == 32_000 - QueryLimits.maxTypedWords)
        #expect(UserQuery.typedWords("emma  !! austen").searched == ["emma", "austen"])
        let index = try await limitsIndex()
        let query = UserQuery(userQueryString: Self.words(32_000), context: UserQueryContext(maxSuggestionCount: 3), index: index)
        #expect(query.leftOutWordCount == 32_000 - 32)
    }

    @Test(.timeLimit(.minutes(1)))
    func longTypedSearchesTakeLinearTimeAndSuggestNothingLong() async throws {
        let index = try await limitsIndex()
        let context = UserQueryContext(maxSuggestionCount: 3)
        let short = Self.words(8_000) + " persu"
        let long = Self.words(32_000) + " persu"
        let shortTime = try await QueryFuzzTests.seconds { _ = try await userSearch(short, context: context, in: index) }
        let longTime = try await QueryFuzzTests.seconds { _ = try await userSearch(long, context: context, in: index) }
        #expect(longTime < shortTime * 4 * 3 + 0.05, "8,000 words: \(shortTime) s, 32,000 words: \(longTime) s")
        // A bound that a two-core machine running the other suites beside it stays well under
        // (an idle one takes a fraction of a second); linear time is what the ratio above checks.
        #expect(longTime < 10)
        #expect(try await userSearch(long, context: context, in: index).suggestions.isEmpty)
        let within = try await userSearch("emma persu", context: context, in: index)
        #expect(within.suggestions.map(\.text) == ["emma persuasion"])
    }
}
